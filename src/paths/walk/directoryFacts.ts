/** What a directory reader reports and a directory node keeps: entry kinds, contents, stamps. */

/** One directory's entries as read: `kinds` holds one code per name (see `readDirectoriesSync`). */
export interface DirectoryContents {
  readonly names: string[];
  readonly kinds: string;
  /** The text of the `.gitignore` file in it, when there is a readable one. */
  readonly gitignore?: string;
  /** The text of its `.git/info/exclude` (the folder is a repository's top), when there is a readable one. */
  readonly gitExclude?: string;
}

/**
 * Kind codes in `DirectoryContents.kinds`; the reader writes them as literals because its source runs in a
 * worker without imports. Any other code (`-`: symlinks, FIFOs, sockets, devices) is never listed or opened.
 */
export const KIND_FILE = 'f';
export const KIND_DIRECTORY = 'd';

/** The directory's inode and timestamps, taken after its read (null: not taken yet, or it failed). */
export interface DirectoryStamp {
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}
