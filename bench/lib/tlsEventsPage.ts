import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generate } from 'selfsigned';
import { configWith } from '../../src/config/serverConfig';
import { startServer, type RunningServer } from '../../src/server/startServer';
import { registerBenchThread } from './benchThread';
import { percentile } from './pathsStats';

const RATIO_SLICES = 5;

export interface TlsPageBenchOptions {
  /** The plain-HTTP server of the run, its thread seeded. */
  plain: RunningServer;
  /** A copy of the plain server's data dir made before it started (one process per data dir). */
  tlsDataDir: string;
  threadId: string;
  rows: number;
  pageLimit: number;
  reads: number;
  warmupReads: number;
  token: string;
}

/**
 * Issue 30's goal: an events page over HTTPS at least 0.8× as fast as over HTTP, on the same machine. A second
 * server of the same code serves a copy of the data dir with a certificate made here (EC P-256, as a private
 * CA or Let's Encrypt hands out); both are read at the same cursors, taking turns at going first, on one
 * kept-alive connection each (the handshake is paid once, as by a browser), after warm-up reads on both.
 */
export async function compareTlsEventsPage(options: TlsPageBenchOptions): Promise<void> {
  const certDir = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-tls-'));
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const tlsCert = path.join(certDir, 'server.crt');
  const tlsKey = path.join(certDir, 'server.key');
  await writeFile(tlsCert, pems.cert);
  await writeFile(tlsKey, pems.private);
  const secure = await startServer({
    config: configWith({ port: 0, token: options.token, dataDir: options.tlsDataDir, tlsCert, tlsKey, agentProviders: 'none' }),
    log: () => {},
  });
  await registerBenchThread(secure, options.threadId);
  const sides = {
    http: { base: options.plain.url, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) as http.Agent },
    https: { base: secure.url, agent: new https.Agent({ keepAlive: true, maxSockets: 1, ca: pems.cert }) as http.Agent },
  };
  const headers = { authorization: `Bearer ${options.token}` };
  const read = async (side: keyof typeof sides, afterSeq: number): Promise<number> => {
    const { base, agent } = sides[side];
    const t0 = performance.now();
    const text = await getText(
      `${base}/api/v1/threads/${options.threadId}/events?afterSeq=${afterSeq}&limit=${options.pageLimit}`,
      headers,
      agent,
    );
    const elapsed = performance.now() - t0;
    const rows = JSON.parse(text) as { seq: number }[];
    if (rows.length !== options.pageLimit || rows[0]!.seq !== afterSeq + 1) throw new Error(`${side} read skipped a seq`);
    return elapsed;
  };
  const cursor = () => Math.floor(Math.random() * (options.rows - options.pageLimit));

  // A server reads a thread whole when it is first read: that is the page bench's business, not TLS's.
  await read('https', 0);
  for (let i = 0; i < options.warmupReads; i++) {
    const afterSeq = cursor();
    await read('http', afterSeq);
    await read('https', afterSeq);
  }
  const cursors = new Set<number>();
  while (cursors.size < options.reads) cursors.add(cursor());
  const times = { http: [] as number[], https: [] as number[] };
  for (const [index, afterSeq] of [...cursors].entries()) {
    const order = index % 2 === 0 ? (['http', 'https'] as const) : (['https', 'http'] as const);
    for (const side of order) times[side].push(await read(side, afterSeq));
  }

  const line = (label: string, values: number[]) =>
    console.log(`  ${label.padEnd(32)} p50 ${percentile(values, 50).toFixed(3)} ms  p99 ${percentile(values, 99).toFixed(3)} ms`);
  console.log(
    `\nevents page over HTTPS vs HTTP (limit ${options.pageLimit}, ${options.reads} cursors a side after ${options.warmupReads} warm-up reads, kept-alive; request → body received, the client's parse not timed)`,
  );
  line('GET …/events over HTTP', times.http);
  line('GET …/events over HTTPS', times.https);
  const speed = (http: number[], https: number[], p: number) => percentile(http, p) / percentile(https, p);
  // Both sides read the same cursors in the same order: a slice of each is the same seconds of the machine,
  // so the slices' p50 ratios are the run's own spread.
  const size = Math.ceil(options.reads / RATIO_SLICES);
  const slices = Array.from({ length: RATIO_SLICES }, (_, i) =>
    speed(times.http.slice(i * size, (i + 1) * size), times.https.slice(i * size, (i + 1) * size), 50),
  );
  console.log(
    `  HTTPS speed / HTTP speed         p50 ${speed(times.http, times.https, 50).toFixed(2)}× (${RATIO_SLICES} slices of ${size} cursors ` +
      `${Math.min(...slices).toFixed(2)}–${Math.max(...slices).toFixed(2)}×)  p99 ${speed(times.http, times.https, 99).toFixed(2)}×  (goal ≥ 0.8×)`,
  );

  Object.values(sides).forEach(({ agent }) => agent.destroy());
  await secure.close();
  await rm(certDir, { recursive: true, force: true });
}

/**
 * A GET on a kept-alive connection with node:http(s), the body as text. A kept socket the server closed for
 * idleness just as it was reused (a slow read on the other side took longer than its keep-alive timeout) is
 * retried once on a new one, as node's docs advise (`request.reusedSocket`).
 */
function getText(url: string, headers: Record<string, string>, agent: http.Agent, retried = false): Promise<string> {
  const get = url.startsWith('https:') ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(text) : reject(new Error(`${url}: ${response.statusCode} ${text}`))));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (request.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(getText(url, headers, agent, true));
      else reject(error);
    });
  });
}
