/** The members feature's public face: other features (and src/mcp, tests, demo, bench) import from here only. */
export {
  dailySyncOffsetSeconds,
  MEMBER_SYNC_TICK_MS,
  memberSyncTick,
  queueMemberSync,
  startMemberSyncScheduler,
} from "./member-sync.ts";
export { ensureMember, refreshMember, SIGN_IN_LOOKUP_MS } from "./members.ensure.ts";
export { memberJobs } from "./members.jobs.ts";
export { memberListeners } from "./members.listeners.ts";
export { requireMember, requireMembers } from "./members.refs.ts";
export {
  ensureAdmin,
  findMember,
  type MemberRow,
  type Role,
  type SlackPerson,
  selectMemberStates,
  upsertPeople,
} from "./members.repo.ts";
export { memberRoutes } from "./members.routes.ts";
export {
  activeMemberIds,
  activeMemberZones,
  listMemberViews,
  listPeople,
  type MemberView,
  memberNames,
  memberTimezone,
  presentMember,
  workspaceMemberZones,
} from "./members.service.ts";
export { membersPersonalData } from "./personal-data.ts";
