import { MAX_KUDO_LENGTH } from "../../contract/index.ts";

/** Kudos a giver may give on one workspace date, whatever the source. */
export const DAILY_KUDOS_LIMIT = 10;
export { MAX_KUDO_LENGTH };
/** The bot's acknowledgement on a channel message that gave kudos. */
export const KUDOS_REACTION = "tada";
/** The installation scope reactions.add needs. */
export const REACTIONS_SCOPE = "reactions:write";
