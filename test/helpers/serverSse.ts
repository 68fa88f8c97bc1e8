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
  const events: { id: string; data: any }[] = [];
  const comments: string[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((waiter) => waiter());
  (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
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
        wake();
      }
    } catch {
      // aborted by close()
    }
  })();
  const until = <T>(ready: () => boolean, value: () => T): Promise<T> =>
    new Promise((resolve) => {
      const check = () => (ready() ? resolve(value()) : waiters.push(check));
      check();
    });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events: (count) => until(() => events.length >= count, () => events.slice()),
    comments: (count) => until(() => comments.length >= count, () => comments.slice()),
    close: () => controller.abort(),
  };
}
