/**
 * The channels feature's public face: app.ts wires it in from here; schedules and standups read the directory;
 * every feature that stores a channel id checks it with requireChannel.
 */

export { type ChannelCheck, requireChannel } from "./channels.refs.ts";
export { channelRoutes } from "./channels.routes.ts";
export {
  type ChannelDirectory,
  type ChannelInfo,
  type ChannelView,
  channelDirectory,
  withinDeadline,
} from "./channels.service.ts";
