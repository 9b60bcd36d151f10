/** The metrics feature's public face: app.ts wires it in from here. */
export { metricsRoutes } from "./metrics.routes.ts";
