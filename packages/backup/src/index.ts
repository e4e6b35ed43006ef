export {
  backupFileName,
  consistentHead,
  EVENT_STORE_SCHEMA_VERSION,
  manifestPathOf,
  takeBackup,
} from './backup.ts';
export { BackupBusy, backupDirectory, listBackups, startDailyBackups } from './directory.ts';
export {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupEventLine,
  type BackupHeader,
  type BackupManifest,
  BackupRefused,
  readBackup,
} from './format.ts';
export { type RestoreResult, restoreBackup } from './restore.ts';
