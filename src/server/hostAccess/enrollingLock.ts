import type { Collection } from '../../registry/collection';
import type { EnrollmentRecord } from '../../registry/records';
import { Problem } from '../http/problem';

/** Far longer than an enrollment takes (a few registry writes): only a server that died mid-enrollment leaves one this old. */
export const ENROLLING_LOCK_MS = 60_000;

/**
 * One enrollment of a host id at a time, on one server or on replicas of one database (issue 37: two codes sent
 * at once for one new host id both answered 201, and the daemon whose credential was overwritten held a dead
 * one). The lock is a record in the enrollments table, `enrolling:<hostId>`, which no code's hash can be:
 * inserting a record whose id exists fails on nedb and on PostgreSQL alike, so of any number of enrollments
 * racing for one id exactly one holds it. The others are refused 409 before their codes are looked at, so
 * their codes stay usable. A lock left by a server that died mid-enrollment expires; `issueEnrollment`'s
 * sweep of expired codes removes it.
 */
export async function lockHostIdForEnrollment(
  enrollments: Collection<EnrollmentRecord>,
  hostId: string,
  now: () => number,
): Promise<() => Promise<void>> {
  const id = `enrolling:${hostId}`;
  const release = () => enrollments.remove(id);
  for (let attempt = 1; ; attempt++) {
    try {
      await enrollments.insert({ id, expiresAt: now() + ENROLLING_LOCK_MS, createdAt: new Date().toISOString() });
      return release;
    } catch (error) {
      // Refused because the lock exists, or for another reason (the database away): only a read tells which.
      const held = await enrollments.get(id);
      if (held && held.expiresAt > now())
        throw new Problem(409, 'host_already_enrolled', `host ${hostId} is being enrolled by another daemon right now`);
      if (attempt >= LOCK_ATTEMPTS) throw error;
      // Stale, it is taken by one caller only, which then races the others for a fresh lock; gone (released
      // between the insert and the read), the next insert tells.
      if (held) await enrollments.take(id);
    }
  }
}

/** Inserts tried before an error that is not a held lock is passed on: each lost one means a lock was released meanwhile. */
const LOCK_ATTEMPTS = 5;
