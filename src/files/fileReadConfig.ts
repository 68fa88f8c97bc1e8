/** Limits of the host file reads (`host.read_file`, `host.read_file_relative`). */
export const FILE_READ_CONFIG = {
  /** Largest file served, in bytes: a file tab shows text, not a disk image; bigger → `too_large`. */
  maxReadBytes: 10 * 1024 * 1024,
} as const;
