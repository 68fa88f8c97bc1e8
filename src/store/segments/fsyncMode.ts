import { z } from 'zod';

/**
 * When an acked row's bytes are on disk. `always`: every append gets an fsync of its own before its ack;
 * `batch` (group commit): appends that arrive while one is being written share the next fsync, so an ack still
 * means fsynced but a burst pays one fsync per file; `off`: acked once written to the OS, which keeps it
 * across a process crash but not across a power loss.
 */
export const FsyncModeSchema = z.enum(['always', 'batch', 'off']);
export type FsyncMode = z.infer<typeof FsyncModeSchema>;
