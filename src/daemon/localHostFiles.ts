import { browseDirectory } from '../files/browseDirectory';
import { readFile } from '../files/readFile';
import { readFileRelative } from '../files/readFileRelative';
import { createPathLister, type PathListerOptions } from './pathLister';
import type { HostFileOperations } from './hostFileHandlers';

/** The settings of a server's embedded daemon or a remote daemon that shape its path lister. */
export interface PathListerSettings {
  /** How long a root nobody searches stays watched; 0: never watch, revalidate by stamps on every call. */
  pathWatchIdleMs?: number;
  /** Log how each listing was answered (watched listing or stamps) and why a watch stopped. */
  debug?: boolean;
  /** The service's own data folder: its files rank as ignored when it lies inside a listed root. */
  dataDir?: string;
}

export function pathListerOptionsOf(settings: PathListerSettings, log: (message: string) => void): PathListerOptions {
  return {
    ...(settings.pathWatchIdleMs === 0
      ? { watcher: null }
      : settings.pathWatchIdleMs === undefined
        ? {}
        : { idleMs: settings.pathWatchIdleMs }),
    ...(settings.debug ? { debug: log } : {}),
    ...(settings.dataDir === undefined ? {} : { ignoredDirectories: [settings.dataDir] }),
  };
}

/** The file commands of this machine, as src/paths and src/files implement them (one lister: it caches walks). */
export function localHostFiles(options: PathListerOptions = {}): HostFileOperations {
  const lister = createPathLister(options);
  return {
    listPaths: (request) => lister.listPaths(request),
    listFiles: (request) => lister.listFiles(request),
    readFile,
    browseDirectory,
    readFileRelative,
    close: () => lister.close(),
  };
}
