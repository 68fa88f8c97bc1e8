import type { Pool } from 'pg';
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

/**
 * The registry in PostgreSQL (`ATS_DATABASE_URL`), shared by every replica: the same collections as
 * the nedb files, one table each (migrations 002, 004 and 008). The pool is the caller's and outlives this registry.
 */
export function openPostgresRegistry(pool: Pool): Registry {
  return {
    projects: openPostgresCollection<ProjectRecord>(pool, 'registry_projects'),
    hosts: openPostgresCollection<HostRecord>(pool, 'registry_hosts'),
    environments: openPostgresCollection<EnvironmentRecord>(pool, 'registry_environments'),
    threads: threadCollectionOf(openPostgresCollection<ThreadRecord>(pool, 'registry_threads')),
    enrollments: openPostgresCollection<EnrollmentRecord>(pool, 'registry_enrollments'),
    hostCredentials: openPostgresCollection<HostCredentialRecord>(pool, 'registry_host_credentials'),
    reviewComments: openPostgresCollection<ReviewCommentRecord>(pool, 'registry_review_comments'),
    async close() {},
  };
}
