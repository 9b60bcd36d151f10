/** The system feature's public face: app.ts wires it in from here. */
export { systemRoutes } from "./system.routes.ts";
