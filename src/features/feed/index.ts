/** The feed feature's public face: other features import from here only. */
export { deleteFeedToken } from "./feed.repo.ts";
export { feedRoutes } from "./feed.routes.ts";
export {
  FEED_DAYS,
  FEED_MAX_RESPONSES,
  type FeedView,
  issueFeedToken,
  loadFeed,
  revokeFeedToken,
} from "./feed.service.ts";
export { feedPersonalData } from "./personal-data.ts";
