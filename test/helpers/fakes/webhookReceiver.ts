import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { listenFake } from './listenFake';

export interface ReceivedPost {
  headers: http.IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** What the receiver answered; undefined while it holds the request. */
  status?: number;
  /** Date.now() when the whole body had arrived (bench:webhook's latency). */
  receivedAt: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  /** Every POST in arrival order, failed ones too. */
  posts: ReceivedPost[];
  /** The POSTs answered 200, each body parsed. */
  delivered(): any[];
  /** Answers every POST from now on with this status (200 by default). */
  answerWith(status: number): void;
  /** Holds every POST from now on until `release()` (a slow receiver). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1, port 0 (or the given one): records every POST with its raw body and answers as told. */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const posts: ReceivedPost[] = [];
  const held = new Set<() => void>();
  let status = 200;
  let holding = false;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const post: ReceivedPost = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      posts.push(post);
      const answer = (code: number) => {
        post.status = code;
        response.writeHead(code).end();
      };
      if (!holding) return answer(status);
      const release = () => {
        held.delete(release);
        answer(200);
      };
      held.add(release);
    });
  });
  const fake = await listenFake(server, held, port);
  return {
    url: `${fake.origin}/hook`,
    posts,
    delivered: () => posts.filter((post) => post.status === 200).map((post) => JSON.parse(post.body)),
    answerWith(code) {
      status = code;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      fake.releaseSlow();
    },
    close: () => fake.close(),
  };
}

/** Whether `X-ATS-Signature-256` is the HMAC-SHA256 of the raw body with `secret` (docs/notifications.md). */
export function hasValidSignature(post: ReceivedPost, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(post.body).digest('hex')}`);
  const given = Buffer.from(String(post.headers['x-ats-signature-256'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A loopback port nothing listens on (yet): a receiver that is down, to be started there later. */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
