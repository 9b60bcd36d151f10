/** The backup feature's public face: app.ts starts the daily snapshots of the embedded database from here. */
export { dropUpbeatObjects } from "./postgres-backup.ts";
export { startSnapshotScheduler } from "./snapshots.ts";
