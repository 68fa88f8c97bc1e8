import path from 'node:path';
import { z } from 'zod';

/**
 * A list of folders in one setting: separated by the platform's path delimiter (`:` on Linux and macOS, as
 * in PATH), each made absolute against the directory the process started in (it may change directory
 * later). A flag given more than once adds to the list (see `repeatable` in loadSettings).
 */
export const PathListSettingSchema = z
  .string()
  .transform((value) =>
    value
      .split(path.delimiter)
      .filter((folder) => folder.trim() !== '')
      .map((folder) => path.resolve(folder)),
  )
  .pipe(z.array(z.string()).min(1, 'at least one folder'));
