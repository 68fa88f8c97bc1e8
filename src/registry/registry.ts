import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openCollection, type Collection } from './collection';
import type { EnvironmentRecord, HostRecord, ProjectRecord, ThreadRecord } from './records';

/** Projects, hosts, environments and threads, each in its own nedb file under `<dataDir>/registry/`. */
export interface Registry {
  projects: Collection<ProjectRecord>;
  hosts: Collection<HostRecord>;
  environments: Collection<EnvironmentRecord>;
  threads: Collection<ThreadRecord>;
  close(): Promise<void>;
}

export async function openRegistry(options: { dataDir: string }): Promise<Registry> {
  const dir = path.join(options.dataDir, 'registry');
  await mkdir(dir, { recursive: true });
  const registry = {
    projects: openCollection<ProjectRecord>(path.join(dir, 'projects.db')),
    hosts: openCollection<HostRecord>(path.join(dir, 'hosts.db')),
    environments: openCollection<EnvironmentRecord>(path.join(dir, 'environments.db')),
    threads: openCollection<ThreadRecord>(path.join(dir, 'threads.db')),
  };
  return {
    ...registry,
    async close() {
      await Promise.all(Object.values(registry).map((collection) => collection.close()));
    },
  };
}
