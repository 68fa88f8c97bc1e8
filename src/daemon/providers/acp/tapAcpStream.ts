import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

export interface AcpWireObserver {
  /** Each `session/update` notification's params, in the order the agent sent them. */
  update(params: unknown): void;
  /** The answer of a `session/prompt` request: after every update that came before it on the wire. */
  promptAnswered(answer: { result?: unknown; error?: unknown }): void;
}

/**
 * Watches the messages of an SDK stream as they cross the wire, and passes them on unchanged. The SDK may run
 * its handlers out of arrival order (each goes through awaited handler chains, while a response settles its
 * request at once), so updates and prompt answers are taken here, where the order is the agent's own: a
 * turn then completes only after every update that came before the prompt's answer (issue 27).
 */
export function tapAcpStream(stream: Stream, observer: AcpWireObserver): Stream {
  const prompts = new Set<string | number | null>();
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      if ('method' in message && 'id' in message && message.method === 'session/prompt') prompts.add(message.id);
      return writer.write(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        if ('method' in message) {
          if (!('id' in message) && message.method === 'session/update') observer.update(message.params);
        } else if ('id' in message && prompts.delete(message.id)) {
          observer.promptAnswered('error' in message ? { error: message.error } : { result: message.result });
        }
        controller.enqueue(message);
      },
    }),
  );
  return { writable, readable };
}
