/** Workspace and member data removal: app.ts wires it in from here. */
export { dataRemovalRoutes } from "./data-removal.routes.ts";
export { deleteMemberData, deleteWorkspace } from "./data-removal.service.ts";
export { erasePerson, eraseWorkspace, teamTables } from "./erase.ts";
export { NOT_PERSONAL, PERSONAL_DATA } from "./personal-data.registry.ts";
