/** The channels feature's public face: app.ts wires it in from here. */
export { channelRoutes } from "./channels.routes.ts";
export type { ChannelView } from "./channels.service.ts";
