import { LINK_CLOSE } from '../../protocol/daemonLink';

/** What a closed link's dial means for the daemon: stop for good (with why), wait out a taken host id, or redial. */
export type LinkCloseVerdict = { kind: 'give-up'; message: string } | { kind: 'id-taken'; reason: string } | { kind: 'redial' };

export interface ClosedDial {
  dialed: string;
  code: number;
  reason: string;
  /** The HTTP status the upgrade was refused with, if it was. */
  refusedStatus: number | undefined;
  /** Why the server's certificate is not trusted, if it is not. */
  untrusted: string | undefined;
  /** How a 401 names the credential and what to do about it. */
  refused: { what: string; advice: string } | undefined;
}

/** Every close the server means for good is a give-up: retrying cannot fix a wrong credential, host or protocol. */
export function linkCloseVerdict(closed: ClosedDial): LinkCloseVerdict {
  const { dialed, code, reason } = closed;
  const giveUp = (message: string): LinkCloseVerdict => ({ kind: 'give-up', message });
  if (closed.refusedStatus === 401)
    return giveUp(
      `the server at ${dialed} refused ${closed.refused?.what ?? 'the token'} (HTTP 401); ${closed.refused?.advice ?? 'check --token'}`,
    );
  if (code === LINK_CLOSE.revoked)
    return giveUp(`the server removed this host (${code} ${reason}); it will not attach again until it is enrolled anew`);
  if (code === LINK_CLOSE.wrongHost) return giveUp(`the server refused this daemon's host id: ${reason}`);
  if (closed.untrusted) return giveUp(`this daemon refused the server: ${closed.untrusted}`);
  if (code === LINK_CLOSE.protocolMismatch) return giveUp(`the server refused this daemon: ${reason}`);
  if (code === LINK_CLOSE.badHello) return giveUp(`the server refused this daemon's hello: ${reason}`);
  if (code === LINK_CLOSE.duplicateHost) return { kind: 'id-taken', reason };
  return { kind: 'redial' };
}
