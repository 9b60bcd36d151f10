/** The members feature's public face: other features, the demo and the benchmarks import from here only. */
export { ensureAdmin, type SlackPerson, upsertPeople } from "./members.repo.ts";
