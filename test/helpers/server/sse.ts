import http from 'node:http';
import https from 'node:https';

/** A minimal SSE client over fetch: parses `id:`/`data:` events and `:` comment lines as they arrive. */
export interface SseClient {
  status: number;
  contentType: string | null;
  /** Resolves once `count` events have arrived (all events so far, in order). */
  events(count: number): Promise<{ id: string; data: any }[]>;
  comments(count: number): Promise<string[]>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const received = sseReceiver();
  (async () => {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received.push(chunk);
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events: received.events,
    comments: received.comments,
    close: () => controller.abort(),
  };
}

/** An SSE client over node:http that does not read the body until told to (a reader that stalls). */
export interface StalledSseClient extends SseClient {
  /** This client's port: the server's socket for the stream has it as `remotePort`. */
  localPort: number;
  /** Starts reading the body. Until then only the kernel's and node's own buffers take bytes. */
  read(): void;
  /** Resolves once the connection is gone (ended or reset), with the complete events read until then. */
  gone(): Promise<{ id: string; data: any }[]>;
}

/** `https://` URLs go over node:https, trusting `ca` (a test's own CA) when given. */
export function openStalledSse(url: string, headers: Record<string, string>, tls: { ca?: string } = {}): Promise<StalledSseClient> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const request = get(url, { headers, agent: false, ca: tls.ca }, (response) => {
      const received = sseReceiver();
      // Data only flows once a 'data' listener is added; until then node stops reading the socket once its
      // small buffer is full, so the server's writes back up.
      response.on('error', () => {});
      const gone = new Promise<void>((done) => response.once('close', () => done()));
      resolve({
        status: response.statusCode ?? 0,
        contentType: response.headers['content-type'] ?? null,
        localPort: request.socket!.localPort!,
        events: received.events,
        comments: received.comments,
        read: () => response.on('data', (chunk: Buffer) => received.push(chunk)),
        gone: () => gone.then(() => received.events(0)),
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

/** Splits a byte stream into SSE events and comment lines, and lets callers wait for a count of either. */
function sseReceiver() {
  const decoder = new TextDecoder();
  let buffer = '';
  const events: { id: string; data: any }[] = [];
  const comments: string[] = [];
  const waiters: (() => void)[] = [];
  const until = <T>(ready: () => boolean, value: () => T): Promise<T> =>
    new Promise((resolve) => {
      const check = () => (ready() ? resolve(value()) : waiters.push(check));
      check();
    });
  return {
    push(chunk: Uint8Array) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id = '';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data) events.push({ id, data: JSON.parse(data) });
      }
      waiters.splice(0).forEach((waiter) => waiter());
    },
    events: (count: number) =>
      until(
        () => events.length >= count,
        () => events.slice(),
      ),
    comments: (count: number) =>
      until(
        () => comments.length >= count,
        () => comments.slice(),
      ),
  };
}
