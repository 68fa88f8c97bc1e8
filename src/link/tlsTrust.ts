import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/**
 * Reads a PEM file of CA certificates (or a self-signed server certificate) that a TLS client trusts instead
 * of the system's CAs, as `curl --cacert` does. `setting` names the flag or env var that gave the path, so a
 * bad file is reported in the words that fix it.
 */
export async function readTrustedCa(file: string, setting: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the CA file ${file} (${setting}): ${messageOf(error)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`the CA file ${file} (${setting}) holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  try {
    new X509Certificate(text);
  } catch (error) {
    throw new Error(`the CA file ${file} (${setting}) is not a readable certificate: ${messageOf(error)}`);
  }
  return text;
}

/** OpenSSL's verify results that mean "no trusted CA vouches for this certificate": a CA setting fixes them. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

export interface TlsDialFailure {
  /** No trusted CA vouches for the server: only the client's CA setting fixes that, retrying never does. */
  untrusted: boolean;
  message: string;
}

/**
 * Why a dial to `url` failed, in words that name what to change, when TLS was the reason: a certificate, a
 * server that speaks no TLS, or one that does and drops a plain dial; undefined for every other failure.
 */
export function tlsDialFailure(error: Error, url: string, caSetting: string): TlsDialFailure | undefined {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (UNTRUSTED.has(code))
    return {
      untrusted: true,
      message: `the certificate of ${url} is not trusted (${error.message}): give the CA that signed it (or the server's own certificate) with ${caSetting}`,
    };
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return { untrusted: false, message: `the certificate of ${url} is out of its validity (${error.message}): the server must renew it` };
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return { untrusted: false, message: `the certificate of ${url} is not for that name (${error.message}): dial a name it holds` };
  if (/wrong version number|packet length too long/i.test(error.message))
    return { untrusted: false, message: `${url} does not speak TLS (${error.message}): dial it with http:// or ws://` };
  // A TLS server drops a plain request without a word: the request only hears its socket hang up unanswered.
  if (/^(ws|http):/.test(url) && error.message === 'socket hang up')
    return { untrusted: false, message: `${url} hung up (${error.message}): if the server speaks TLS, dial it with https://` };
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
