/** @module The data lifecycle's public surface: the retention policy, the prune and its timer. */
export { OWNER_REFERENCES, RETENTION, RETENTION_RULES, type RetentionRule } from "./policy.ts";
export {
  ANOTHER_INSTANCE,
  PRUNE_BATCH_DEFAULT,
  PRUNE_LOCK_KEY,
  type PruneInput,
  PruneInputSchema,
  type PruneProgress,
  type PruneReport,
  pruneStores,
  type StoreOutcome,
} from "./prune.ts";
export {
  FIRST_PRUNE_DELAY_MS,
  type PeriodicPrune,
  type PruneTimers,
  startPeriodicPrune,
} from "./schedule.ts";
