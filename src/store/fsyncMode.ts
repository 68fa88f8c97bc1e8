import { z } from 'zod';

/**
 * When a write counts as acknowledged (`ATS_FSYNC`):
 * - `always`: each write is fsynced on its own before it is acked;
 * - `batch` (default): group commit, the writes of one moment share one fsync, and each is acked after it;
 * - `off`: acked once the bytes are handed to the operating system (lost on a power cut, not on a process kill).
 */
export const FsyncModeSchema = z.enum(['always', 'batch', 'off']);
export type FsyncMode = z.infer<typeof FsyncModeSchema>;

export const DEFAULT_FSYNC_MODE: FsyncMode = 'batch';
