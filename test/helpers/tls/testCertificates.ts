import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';

/** A certificate for 127.0.0.1 and localhost with its key, as PEM text and as files in a test's folder. */
export interface TestCertificate {
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
  /** SHA-256, as `X509Certificate.fingerprint256` and `getPeerCertificate().fingerprint256` say it. */
  fingerprint: string;
}

/** A private CA made for one test: the file a daemon gets with `--ca`, and the certificates it signs. */
export interface TestCa {
  /** The CA's certificate (PEM), for clients in the test process. */
  ca: string;
  caFile: string;
  /** A new server certificate signed by this CA, written as `<name>.crt` / `<name>.key` in the folder. */
  issue(name: string): Promise<TestCertificate>;
}

const LOOPBACK = [
  { type: 2 as const, value: 'localhost' },
  { type: 7 as const, ip: '127.0.0.1' },
];

/** EC keys: a pair in ~50 ms where RSA takes seconds on a busy 2-core machine. */
export async function makeTestCa(folder: string): Promise<TestCa> {
  const ca = await generate([{ name: 'commonName', value: 'agent-thread-service test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const caFile = path.join(folder, 'ca.crt');
  await writeFile(caFile, ca.cert);
  return {
    ca: ca.cert,
    caFile,
    issue: (name) => certificate(folder, name, { ca: { key: ca.private, cert: ca.cert } }),
  };
}

/** A self-signed server certificate that no CA of the test vouches for. */
export function makeSelfSignedCertificate(folder: string, name: string): Promise<TestCertificate> {
  return certificate(folder, name, {});
}

async function certificate(folder: string, name: string, signing: { ca?: { key: string; cert: string } }): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: LOOPBACK },
    ],
    ...signing,
  });
  const certFile = path.join(folder, `${name}.crt`);
  const keyFile = path.join(folder, `${name}.key`);
  await writeFile(certFile, pems.cert);
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  return { cert: pems.cert, key: pems.private, certFile, keyFile, fingerprint: new X509Certificate(pems.cert).fingerprint256 };
}
