import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { envName, flagName } from '../../config/loadSettings';
import { ConfigError } from '../../config/serverConfig';

/** Where the served certificate and its key are read from (`ATS_TLS_CERT` / `ATS_TLS_KEY`), absolute. */
export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

/** A certificate and its key as read together, checked to belong together and to load into OpenSSL. */
export interface CertificatePair {
  cert: Buffer;
  key: Buffer;
  /** SHA-256 fingerprint of the leaf (the first certificate of the file), as browsers show it. */
  fingerprint: string;
  /** `CN=…, SHA-256 …, valid until …`: what a log line says of the served certificate. */
  summary: string;
  /** The files' size, mtime and inode when read: a renewal changes them (see certificateWatch.ts). */
  stamps: string;
}

/** A TLS setting that cannot be served: the CLI prints it as one line, like every ConfigError. */
export class TlsSettingError extends ConfigError {}

const setting = (key: 'tlsCert' | 'tlsKey') => `${flagName(key)} / ${envName('ATS_', key)}`;

/** The files of `tlsCert` / `tlsKey`, or undefined when TLS is off; one of the two alone is an error. */
export function certificateFilesOf(settings: { tlsCert?: string; tlsKey?: string }): CertificateFiles | undefined {
  const { tlsCert, tlsKey } = settings;
  if (tlsCert === undefined && tlsKey === undefined) return undefined;
  if (tlsCert === undefined || tlsKey === undefined) {
    const [given, missing] = tlsCert === undefined ? (['tlsKey', 'tlsCert'] as const) : (['tlsCert', 'tlsKey'] as const);
    throw new TlsSettingError(`${setting(given)} is set but ${setting(missing)} is not: HTTPS needs both files (or neither)`);
  }
  return { certFile: path.resolve(tlsCert), keyFile: path.resolve(tlsKey) };
}

/** Size, mtime and inode of both files (`missing` for one that is gone): equal stamps, same files. */
export async function stampsOf(files: CertificateFiles): Promise<string> {
  const one = async (file: string) => {
    const info = await stat(file).catch(() => undefined);
    return info ? `${info.size}:${info.mtimeMs}:${info.ino}` : 'missing';
  };
  return `${await one(files.certFile)}|${await one(files.keyFile)}`;
}

/** Reads and checks the pair; every failure names the setting to change and the file it read. */
export async function readCertificatePair(files: CertificateFiles): Promise<CertificatePair> {
  const stamps = await stampsOf(files);
  const cert = await readSetting('tlsCert', files.certFile);
  const key = await readSetting('tlsKey', files.keyFile);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch (error) {
    throw new TlsSettingError(`${setting('tlsCert')} ${files.certFile} holds no readable PEM certificate: ${messageOf(error)}`);
  }
  try {
    if (!leaf.checkPrivateKey(createPrivateKey(key)))
      throw new TlsSettingError(
        `${setting('tlsKey')} ${files.keyFile} is not the private key of the certificate in ${setting('tlsCert')} ${files.certFile}`,
      );
  } catch (error) {
    if (error instanceof TlsSettingError) throw error;
    throw new TlsSettingError(`${setting('tlsKey')} ${files.keyFile} holds no readable PEM private key: ${messageOf(error)}`);
  }
  try {
    createSecureContext({ cert, key }); // what the server will do with them: fails here rather than on reload
  } catch (error) {
    throw new TlsSettingError(`${setting('tlsCert')} / ${setting('tlsKey')} cannot be served: ${messageOf(error)}`);
  }
  const subject = leaf.subject.split('\n').find((part) => part.startsWith('CN=')) ?? leaf.subject.replace(/\n/g, ', ');
  return {
    cert,
    key,
    fingerprint: leaf.fingerprint256,
    summary: `${subject}, SHA-256 ${leaf.fingerprint256}, valid until ${new Date(leaf.validTo).toISOString()}`,
    stamps,
  };
}

async function readSetting(key: 'tlsCert' | 'tlsKey', file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new TlsSettingError(`cannot read ${setting(key)} ${file}: ${messageOf(error)}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
