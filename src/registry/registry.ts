import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_FSYNC_MODE, type FsyncMode } from '../store/fsyncMode';
import { fsyncPath } from '../store/fsyncPath';
import { openCollection, type Collection } from './collection';
import { threadCollectionOf, type ThreadCollection } from './threadCollection';
import type {
  EnrollmentRecord,
  EnvironmentRecord,
  HostCredentialRecord,
  HostRecord,
  ProjectRecord,
  ReviewCommentRecord,
  ThreadRecord,
} from './records';

/** Projects, hosts, environments and threads, each in its own nedb file under `<dataDir>/registry/`. */
export interface Registry {
  projects: Collection<ProjectRecord>;
  hosts: Collection<HostRecord>;
  environments: Collection<EnvironmentRecord>;
  /** Threads being deleted are hidden from it (threadCollection.ts). */
  threads: ThreadCollection;
  /** One-time enrollment codes and the hosts' own credentials, as hashes (src/server/hostAccess). */
  enrollments: Collection<EnrollmentRecord>;
  hostCredentials: Collection<HostCredentialRecord>;
  /** Review comments on threads' diffs (issue 38), found by `threadId`. */
  reviewComments: Collection<ReviewCommentRecord>;
  close(): Promise<void>;
}

export const REGISTRY_DIR_NAME = 'registry';

export async function openRegistry(options: { dataDir: string; fsync?: FsyncMode }): Promise<Registry> {
  const dir = path.join(options.dataDir, REGISTRY_DIR_NAME);
  const fsync = options.fsync ?? DEFAULT_FSYNC_MODE;
  const made = await mkdir(dir, { recursive: true });
  // A new folder's own name lives in its parent: synced, it survives a power cut along with the files in it.
  if (made !== undefined && fsync !== 'off') await fsyncPath(path.dirname(dir));
  const [projects, hosts, environments, threads, enrollments, hostCredentials, reviewComments] = await Promise.all([
    openCollection<ProjectRecord>(path.join(dir, 'projects.db'), { fsync }),
    openCollection<HostRecord>(path.join(dir, 'hosts.db'), { fsync }),
    openCollection<EnvironmentRecord>(path.join(dir, 'environments.db'), { fsync }),
    openCollection<ThreadRecord>(path.join(dir, 'threads.db'), { fsync }),
    openCollection<EnrollmentRecord>(path.join(dir, 'enrollments.db'), { fsync }),
    openCollection<HostCredentialRecord>(path.join(dir, 'host-credentials.db'), { fsync }),
    openCollection<ReviewCommentRecord>(path.join(dir, 'review-comments.db'), { fsync }),
  ]);
  const registry = { projects, hosts, environments, threads: threadCollectionOf(threads), enrollments, hostCredentials, reviewComments };
  return {
    ...registry,
    async close() {
      await Promise.all(Object.values(registry).map((collection) => collection.close()));
    },
  };
}
