/** @module The data lifecycle's public surface: the retention policy, the prune and its timer. */
export { OWNER_REFERENCES } from "./policy.ts";
export {
  ANOTHER_INSTANCE,
  PRUNE_LOCK_KEY,
  type PruneReport,
  pruneStores,
  type StoreOutcome,
  type StoreUsage,
} from "./prune.ts";
export {
  type PruneTimers,
  startPeriodicPrune,
} from "./schedule.ts";
