import { browseDirectory } from '../files/browseDirectory';
import { readFile } from '../files/readFile';
import { readFileRelative } from '../files/readFileRelative';
import { createPathLister, type PathListerOptions } from './pathLister';
import type { HostFileOperations } from './hostFileHandlers';

/** The file commands of this machine, as src/paths and src/files implement them (one lister: it caches walks). */
export function localHostFiles(options: PathListerOptions = {}): HostFileOperations {
  const lister = createPathLister(options);
  return {
    listPaths: (request) => lister.listPaths(request),
    listFiles: (request) => lister.listFiles(request),
    readFile,
    browseDirectory,
    readFileRelative,
  };
}
