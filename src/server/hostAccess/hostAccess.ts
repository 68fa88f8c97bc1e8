import { hostIdOfCredential, type Enrollment } from '../../protocol/hostEnrollment';
import type { Registry } from '../../registry/registry';
import { Problem } from '../http/problem';
import { hashOf, matchesHash, newEnrollmentCode, newHostCredential } from './secrets';
import { lockHostIdForEnrollment } from './enrollingLock';

/**
 * Who may attach as a host (issue 30, docs/hosts.md#enrolling-a-host). Everything lives in the registry, as
 * hashes, so every replica of one database (and this process after a restart) answers the same.
 */
export interface HostAccess {
  /** A one-time code, valid for `enrollmentTtlMs`; only its hash is stored. */
  issueEnrollment(): Promise<Enrollment>;
  /**
   * Trades a code for `hostId`'s credential. A code used once already, unknown or expired is refused (401
   * `enrollment_code_invalid` / `enrollment_code_expired`); a host id that holds a credential already, or is a
   * server's own, is refused (409) before the code is used: a code must not take over another host's id.
   * A removed host, or one that attached with the server's token, may enroll under its id.
   */
  enroll(code: string, hostId: string): Promise<string>;
  /** The host a credential attaches, while it is that host's current one. */
  hostOf(credential: string): Promise<string | undefined>;
  /** Removed with `DELETE /hosts/:id` and not enrolled since: not even the server's token attaches it. */
  isRevoked(hostId: string): Promise<boolean>;
  /** Whether the host holds a credential now (it may have enrolled without ever attaching). */
  isEnrolled(hostId: string): Promise<boolean>;
  /** Forgets the host's credential and marks it removed. */
  revoke(hostId: string): Promise<void>;
}

export interface HostAccessOptions {
  enrollmentTtlMs: number;
  now?(): number;
}

export function createHostAccess(
  registry: Pick<Registry, 'enrollments' | 'hostCredentials' | 'hosts'>,
  options: HostAccessOptions,
): HostAccess {
  const now = options.now ?? Date.now;
  const { enrollments, hostCredentials } = registry;

  const refuseTakenId = async (hostId: string) => {
    if ((await registry.hosts.get(hostId))?.embedded)
      throw new Problem(409, 'host_is_embedded', `host ${hostId} is a server's own host; a daemon elsewhere needs a data dir of its own`);
    if ((await hostCredentials.get(hostId))?.keyHash)
      throw new Problem(
        409,
        'host_already_enrolled',
        `host ${hostId} holds a credential already: remove it first (DELETE /api/v1/hosts/${hostId}, or Remove in the page), or start this daemon with a new --data-dir`,
      );
  };

  /** Trades the code for the host's credential; runs holding the host id's enrollment lock. */
  const enrollLocked = async (code: string, hostId: string): Promise<string> => {
    // Taken before it is judged: of two daemons racing with one code (on one server or two), one gets it.
    const enrollment = await enrollments.take(hashOf(code));
    if (!enrollment)
      throw new Problem(401, 'enrollment_code_invalid', 'this enrollment code is unknown or was used already: make a new one');
    if (enrollment.expiresAt <= now())
      throw new Problem(
        401,
        'enrollment_code_expired',
        `this enrollment code expired at ${new Date(enrollment.expiresAt).toISOString()}: make a new one (ATS_ENROLLMENT_TTL_MS sets how long they last)`,
      );
    const credential = newHostCredential(hostId);
    await hostCredentials.put({ id: hostId, keyHash: hashOf(credential), createdAt: new Date().toISOString() });
    return credential;
  };

  /** Codes nobody used leave with the next code made, so the table holds only live ones (and a few stale). */
  const dropExpired = async () => {
    const at = now();
    for (const record of await enrollments.find()) if (record.expiresAt <= at) await enrollments.take(record.id);
  };

  return {
    async issueEnrollment() {
      await dropExpired();
      const code = newEnrollmentCode();
      const expiresAt = now() + options.enrollmentTtlMs;
      await enrollments.insert({ id: hashOf(code), expiresAt, createdAt: new Date().toISOString() });
      return { code, expiresAt };
    },
    async enroll(code, hostId) {
      await refuseTakenId(hostId);
      const release = await lockHostIdForEnrollment(enrollments, hostId, now);
      try {
        // Looked at again under the lock: an enrollment that held it a moment ago may have stored a credential.
        await refuseTakenId(hostId);
        return await enrollLocked(code, hostId);
      } finally {
        await release();
      }
    },
    async hostOf(credential) {
      const hostId = hostIdOfCredential(credential);
      if (!hostId) return undefined;
      const record = await hostCredentials.get(hostId);
      return record?.keyHash && matchesHash(credential, record.keyHash) ? hostId : undefined;
    },
    async isRevoked(hostId) {
      return (await hostCredentials.get(hostId))?.revokedAt !== undefined;
    },
    async isEnrolled(hostId) {
      return (await hostCredentials.get(hostId))?.keyHash !== undefined;
    },
    async revoke(hostId) {
      const at = new Date().toISOString();
      await hostCredentials.put({ id: hostId, revokedAt: at, createdAt: at });
    },
  };
}
