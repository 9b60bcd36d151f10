/** The maintenance feature's public face: app.ts wires its daily retention job and scheduler from here. */
export {
  maintenanceJobs,
  maintenanceTick,
  PRUNE_STEPS,
  pruneInBatches,
  runMaintenance,
  startMaintenanceScheduler,
} from "./maintenance.ts";
