import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { HostCommandError } from '../protocol/hostErrors';
import { isInsideAny } from './pathInside';

/**
 * The folders a host exposes: its owner's `--allow-root` (a remote daemon) or `ATS_ALLOW_ROOTS` (the
 * server's embedded host). Unset (`null`), every folder, as before the setting existed: a single-user
 * laptop needs no flag. Checked by the host itself, so it holds whatever server the host is linked to.
 */
export interface AllowedRoots {
  /** As configured (absolute paths), or null: every folder. */
  readonly folders: readonly string[] | null;
  /**
   * Their real paths now (symlinks followed), or null: every folder. Resolved on each call, so a folder
   * created after the start counts; one that does not exist allows nothing.
   */
  realFolders(): Promise<string[] | null>;
  /** Throws `root_not_allowed` unless `folder`, once symlinks and `..` are resolved, lies inside an allowed folder. */
  require(folder: string): Promise<void>;
}

export const EVERY_FOLDER: AllowedRoots = { folders: null, realFolders: async () => null, require: async () => undefined };

export function allowedRoots(folders: readonly string[] | undefined): AllowedRoots {
  if (folders === undefined || folders.length === 0) return EVERY_FOLDER;
  const configured = folders.map((folder) => path.resolve(folder));
  const realFolders = async () =>
    (await Promise.all(configured.map((folder) => realpath(folder).catch(() => null)))).filter((real) => real !== null);
  return {
    folders: configured,
    realFolders,
    async require(folder) {
      requireInside(await realFolders(), await whereItLeads(folder), folder);
    },
  };
}

/** Throws `root_not_allowed` naming `asked` unless `realPath` lies inside one of `realFolders` (null: every folder). */
export function requireInside(realFolders: readonly string[] | null, realPath: string, asked: string): void {
  if (realFolders !== null && !isInsideAny(realFolders, realPath)) throw rootNotAllowed(asked);
}

/**
 * `folder` with every symlink and `..` resolved. For a path that does not exist, its nearest existing
 * ancestor is resolved and the rest appended, so a missing path outside answers `root_not_allowed` rather
 * than telling whether it exists.
 */
export async function whereItLeads(folder: string): Promise<string> {
  const real = await realpath(folder).catch(() => null);
  if (real !== null) return real;
  // The parent as written (not normalized): `link/..` is where the kernel's `..` leads, past the link.
  const parent = path.dirname(folder);
  return parent === folder ? path.resolve(folder) : path.join(await whereItLeads(parent), path.basename(folder));
}

export function rootNotAllowed(asked: string): HostCommandError {
  return new HostCommandError(
    'root_not_allowed',
    `${asked} is outside the folders this host allows (--allow-root / ATS_ALLOW_ROOTS); its owner adds a folder with --allow-root DIR on a remote daemon, or ATS_ALLOW_ROOTS on the server's embedded host`,
  );
}
