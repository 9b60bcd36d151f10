/** The profiles feature's public face: other features import from here only. */

export { profilesPersonalData } from "./personal-data.ts";
export { openProfileModal, profileListeners } from "./profiles.listeners.ts";
export { OPEN_PROFILE_ACTION, profileButton } from "./profiles.modal.ts";
export type { CelebrationProfile } from "./profiles.repo.ts";
export { profileRoutes } from "./profiles.routes.ts";
export {
  getProfile,
  membersMissingDates,
  type ProfileView,
  profilesForCelebration,
  saveProfile,
} from "./profiles.service.ts";
