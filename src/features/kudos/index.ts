/** The kudos feature's public face: app.ts wires it in, standups adds the shout-out to its modal and command. */
export type { KudoGivenEvent } from "./events.ts";
export { type CommandReply, type KudosCommand, kudosCommand } from "./kudos.command.ts";
export { kudosJobs } from "./kudos.jobs.ts";
export { kudosListeners } from "./kudos.listeners.ts";
// insertKudo: the demo's past kudos, stored in bulk as importHistory stores past answers (no post, no event).
export { insertKudo } from "./kudos.repo.ts";
export { kudosRoutes } from "./kudos.routes.ts";
export { DAILY_KUDOS_LIMIT, MAX_KUDO_LENGTH } from "./kudos.rules.ts";
export {
  type GiveOutcome,
  giveKudos,
  kudosGivenBetween,
  kudosWindow,
  leaderboard,
  recentKudos,
} from "./kudos.service.ts";
export {
  checkShoutOut,
  giveShoutOut,
  readShoutOut,
  SHOUT_OUT,
  type ShoutOut,
  shoutOutBlocks,
} from "./kudos.shout-out.ts";
export { kudosPersonalData } from "./personal-data.ts";
