/** @module The operations domain's public surface: what the front ends call. */
export { requestSnapshot } from "./admin-socket.ts";
export { BackupFailed, restoreBackup, snapshotDataDir, stagingDir, writeBackup } from "./backup.ts";
export {
  type MigrateEvent,
  type MigrateReport,
  MigrationRefused,
  migrateToPostgres,
} from "./migrate.ts";
