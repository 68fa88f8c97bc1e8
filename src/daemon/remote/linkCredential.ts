import { credentialFileOf, loadHostCredential, saveHostCredential } from './hostCredentialFile';
import { enrollHost } from './enrollHost';
import { linkUrls } from './daemonLinkClient';

/** What the daemon dials with: its own credential, or (deprecated) the server's token. */
export interface LinkCredential {
  bearer: string;
  /** How a refusal (HTTP 401) names it, and what to do about it. */
  refused: { what: string; advice: string };
}

export interface LinkCredentialSettings {
  server: string;
  dataDir: string;
  enroll?: string;
  token?: string;
  /** PEM CA certificates trusted for an https server (`--ca`, read already), for the enrollment as for the link. */
  trustedCa?: string;
}

/** The command a person runs to enroll this host, for messages (the code is theirs to fill in). */
export function enrollCommand(server: string): string {
  return `npm run daemon -- --server ${server} --enroll CODE`;
}

const MAKE_A_CODE = "make an enrollment code in the server page's host list (or POST /api/v1/hosts/enrollments)";

/** Thrown when the daemon has nothing to dial with: the message says how to enroll. */
export class NoHostCredential extends Error {}

/**
 * `--enroll CODE` trades the code for this host's credential and keeps it in the data dir; without it, the
 * kept credential is used; without one, the deprecated `--token`, with a warning saying what to run instead.
 */
export async function linkCredentialOf(
  settings: LinkCredentialSettings,
  hostId: string,
  log: (message: string) => void,
): Promise<LinkCredential> {
  const reenroll = `${MAKE_A_CODE} and run ${enrollCommand(settings.server)}`;
  const own = (bearer: string): LinkCredential => ({
    bearer,
    refused: {
      what: `this host's credential (${credentialFileOf(settings.dataDir)})`,
      advice: `it is no longer valid: the host was removed, or the server's data was reset; to attach it again, ${reenroll}`,
    },
  });
  if (settings.enroll) {
    const credential = await enrollHost(linkUrls(settings.server), { code: settings.enroll, hostId }, settings.trustedCa);
    const file = await saveHostCredential(settings.dataDir, credential);
    log(`enrolled as ${hostId}; this host's credential is in ${file} (mode 0600): later starts need no --enroll or --token`);
    return own(credential);
  }
  const stored = await loadHostCredential(settings.dataDir, log);
  if (stored) {
    if (settings.token) log(`--token is ignored: this host has its own credential (${credentialFileOf(settings.dataDir)})`);
    return own(stored);
  }
  if (settings.token) {
    log(
      `warning: --token (ATS_DAEMON_TOKEN) is deprecated for daemons and stops working in the next release; it hands this ` +
        `machine the key to the whole API. Instead, ${reenroll} once: the daemon then keeps a credential of its own.`,
    );
    return { bearer: settings.token, refused: { what: 'the token', advice: 'check --token' } };
  }
  throw new NoHostCredential(`this host is not enrolled (no ${credentialFileOf(settings.dataDir)}): ${reenroll}`);
}
