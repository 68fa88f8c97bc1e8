import type { Pool } from 'pg';
import { postgresAdvisoryLock } from '../store/postgres/advisoryLock';
import { openPostgresCollection } from '../store/postgres/postgresCollection';
import type {
  EnrollmentRecord,
  EnvironmentRecord,
  HostCredentialRecord,
  HostRecord,
  ProjectRecord,
  ReviewCommentRecord,
  ThreadRecord,
} from './records';
import type { Registry } from './registry';
import { threadCollectionOf } from './threadCollection';
import { inProcessThreadLock } from './threadLock';

/**
 * The registry in PostgreSQL (`ATS_DATABASE_URL`), shared by every replica: the same collections as
 * the nedb files, one table each (migrations 002, 004 and 008). The pools are the caller's and outlive this registry.
 * A thread's changes are serialised in this process first, then across replicas by a session advisory lock
 * held on a connection of `lockPool` (advisoryLock.ts), which should be a pool of its own; without one (a
 * caller that never changes threads concurrently) the locks share `pool`.
 */
export function openPostgresRegistry(pool: Pool, lockPool: Pool = pool): Registry {
  return {
    projects: openPostgresCollection<ProjectRecord>(pool, 'registry_projects'),
    hosts: openPostgresCollection<HostRecord>(pool, 'registry_hosts'),
    environments: openPostgresCollection<EnvironmentRecord>(pool, 'registry_environments'),
    threads: threadCollectionOf(openPostgresCollection<ThreadRecord>(pool, 'registry_threads')),
    threadLock: inProcessThreadLock(postgresAdvisoryLock(lockPool)),
    enrollments: openPostgresCollection<EnrollmentRecord>(pool, 'registry_enrollments'),
    hostCredentials: openPostgresCollection<HostCredentialRecord>(pool, 'registry_host_credentials'),
    reviewComments: openPostgresCollection<ReviewCommentRecord>(pool, 'registry_review_comments'),
    async close() {},
  };
}
