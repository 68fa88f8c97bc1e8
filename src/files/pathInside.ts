import path from 'node:path';

/** Whether `candidate` is `folder` itself or lies below it; both absolute and normalized (real paths, say). */
export function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** Whether `candidate` lies inside one of `folders`. */
export function isInsideAny(folders: readonly string[], candidate: string): boolean {
  return folders.some((folder) => isInside(folder, candidate));
}
