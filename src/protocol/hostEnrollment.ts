import { z } from 'zod';

/**
 * How a remote daemon gets a credential of its own (issue 30, docs/hosts.md#enrolling-a-host): an operator
 * makes a one-time enrollment code (`POST /api/v1/hosts/enrollments`), the daemon trades it once for a host
 * credential (`POST /api/v1/hosts/enroll`), keeps that in its data dir and dials `/api/v1/daemon` with it. The
 * server keeps only sha256 hashes of both. Shared by the server's routes and the daemon's enroll call.
 */
export const ENROLL_PATH = '/api/v1/hosts/enroll';

/**
 * `atshost.<hostId>.<secret>`: the host id in the clear says which record to compare the secret's hash with
 * (one lookup, on any store), and the prefix lets every HTTP route tell a host credential from the server's
 * token and refuse it for what it is (403 `host_credential_not_allowed`).
 */
export const HOST_CREDENTIAL_PREFIX = 'atshost.';
/** `atsenroll.<secret>`: an enrollment code, good for one enrollment until it expires. */
export const ENROLLMENT_CODE_PREFIX = 'atsenroll.';

export const HostIdSchema = z.string().regex(/^host_[A-Za-z0-9_-]{1,100}$/, 'a host id (host_…)');

export const EnrollmentSchema = z.strictObject({
  /** Shown once: the server keeps only its hash. */
  code: z.string(),
  /** Epoch ms; after it the code is refused (`ATS_ENROLLMENT_TTL_MS`, default 15 minutes). */
  expiresAt: z.number().int(),
});
export type Enrollment = z.infer<typeof EnrollmentSchema>;

export const EnrollBodySchema = z.strictObject({
  code: z.string().min(1).max(200),
  /** The daemon's own host id (its data dir's host.json): the credential is bound to it. */
  hostId: HostIdSchema,
});
export type EnrollBody = z.infer<typeof EnrollBodySchema>;

export const EnrolledSchema = z.strictObject({
  hostId: HostIdSchema,
  /** Shown once, to the daemon: it attaches as `hostId` with it and can do nothing else. */
  credential: z.string(),
});
export type Enrolled = z.infer<typeof EnrolledSchema>;

export function isHostCredential(secret: string): boolean {
  return secret.startsWith(HOST_CREDENTIAL_PREFIX);
}

/** The host a credential names (not yet checked against the server's hash). */
export function hostIdOfCredential(credential: string): string | undefined {
  if (!isHostCredential(credential)) return undefined;
  const [hostId, secret] = credential.slice(HOST_CREDENTIAL_PREFIX.length).split('.');
  return hostId && secret && HostIdSchema.safeParse(hostId).success ? hostId : undefined;
}
