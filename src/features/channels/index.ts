/** The channels feature's public face: app.ts wires it in from here; schedules and standups read the directory. */
export { channelRoutes } from "./channels.routes.ts";
export { type ChannelDirectory, type ChannelView, channelDirectory, withinDeadline } from "./channels.service.ts";
