import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ENROLLMENT_CODE_PREFIX, HOST_CREDENTIAL_PREFIX } from '../../protocol/hostEnrollment';

/** 256 random bits: guessing one within its 15 minutes (or ever, for a credential) is out of reach. */
const SECRET_BYTES = 32;

export function newEnrollmentCode(): string {
  return ENROLLMENT_CODE_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

export function newHostCredential(hostId: string): string {
  return `${HOST_CREDENTIAL_PREFIX}${hostId}.${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/**
 * What the registry keeps instead of a code or a credential. No salt or slow hash is needed: the secrets are
 * random and long, so their hashes cannot be reversed by trying candidates.
 */
export function hashOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time, so how long a wrong credential takes to refuse says nothing about the right one. */
export function matchesHash(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashOf(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
