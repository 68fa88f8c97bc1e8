import { Client } from 'pg';

export interface DatabaseListenerOptions {
  url: string;
  channels: readonly string[];
  onNotification(channel: string, payload: string): void;
  /**
   * Called once listening, first and after every reconnect: notifications sent while the connection was
   * down are lost, so whoever relies on them reads what it may have missed here.
   */
  onListening(): void;
  /** Wait before reconnecting after the connection failed. */
  retryMs: number;
  log(message: string): void;
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries), reconnecting whenever
 * it drops. Notifications are hints: readers always read the table after one, so a lost one delays a row
 * until the next hint or catch-up, never loses it.
 */
export function listenToDatabase(options: DatabaseListenerOptions): { close(): Promise<void> } {
  let client: Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (closed) return;
    const next = new Client({ connectionString: options.url, application_name: 'agent-thread-service listener' });
    client = next;
    const reconnect = (why: string) => {
      if (client !== next || closed) return;
      client = undefined;
      options.log(`postgres listener: ${why}; reconnecting in ${options.retryMs} ms`);
      void next.end().catch(() => {});
      retry = setTimeout(() => void connect(), options.retryMs);
    };
    next.on('error', (error) => reconnect(error.message));
    next.on('end', () => reconnect('connection ended'));
    next.on('notification', (message) => options.onNotification(message.channel, message.payload ?? ''));
    try {
      await next.connect();
      for (const channel of options.channels) await next.query(`LISTEN ${channel}`);
      if (client === next) options.onListening();
    } catch (error) {
      reconnect(error instanceof Error ? error.message : String(error));
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
