/** Workspace and member data removal: app.ts wires it in from here. */
export { dataRemovalRoutes } from "./data-removal.routes.ts";
export { deleteMemberData, deleteWorkspace, personColumns, teamTables } from "./data-removal.service.ts";
