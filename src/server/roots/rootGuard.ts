import path from 'node:path';
import type { Registry } from '../../registry/registry';
import type { HostDirectory } from '../hosts/hostDirectory';
import { Problem } from '../http/problem';
import { pathTooLong } from '../../protocol/hostFiles';

/**
 * The filter `host.read_file` lacks (spec part 4: "no dot or name filter"): a path is served only when it
 * lies inside a project or environment root registered for that host, both as written and once every
 * symlink is resolved on the host. Returns the resolved path to read and the real root it lies in: the
 * host reads it only if the file it opens is still inside that root (a symlink swapped in after this check
 * is refused there, issue 30).
 */
export async function guardPathInRoots(
  deps: { registry: Registry; hosts: HostDirectory },
  hostId: string,
  requested: string,
): Promise<{ path: string; root: string }> {
  if (requested.includes('\0')) throw new Problem(400, 'invalid_path', 'the path contains a NUL byte');
  refuseLongPath(requested);
  if (!path.posix.isAbsolute(requested)) throw new Problem(400, 'invalid_path', 'the path must be absolute');
  if (requested.split('/').includes('..')) throw outside(requested);
  const roots = await rootsOf(deps.registry, hostId);
  const lexicalRoots = roots.filter((root) => isInside(root, path.posix.normalize(requested)));
  if (lexicalRoots.length === 0) throw outside(requested);
  const target = await deps.hosts.call(hostId, 'host.resolve_path', { path: requested });
  for (const root of lexicalRoots) {
    const realRoot = await deps.hosts.call(hostId, 'host.resolve_path', { path: root });
    if (isInside(realRoot.realPath, target.realPath)) return { path: target.realPath, root: realRoot.realPath };
  }
  throw outside(requested);
}

/** The host would refuse it too (`invalid_params`): said here before the roots are read, with the same code. */
export function refuseLongPath(requested: string): void {
  const reason = pathTooLong(requested);
  if (reason) throw new Problem(400, 'invalid_params', `the path ${reason}`);
}

async function rootsOf(registry: Registry, hostId: string): Promise<string[]> {
  const [projects, environments] = await Promise.all([registry.projects.find(), registry.environments.find({ hostId })]);
  const roots = [...projects.filter((p) => p.source.hostId === hostId).map((p) => p.source.path), ...environments.map((e) => e.path)];
  return [...new Set(roots.map((root) => path.posix.normalize(root)))];
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.posix.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith('../') && !path.posix.isAbsolute(relative));
}

function outside(requested: string): Problem {
  return new Problem(403, 'path_outside_roots', `${requested} is not inside a registered project or environment folder of that host`);
}
