/** The install feature's public face: other features, the demo and the benchmarks import from here only. */
export { findInstallation, upsertInstallation } from "./installations.repo.ts";
