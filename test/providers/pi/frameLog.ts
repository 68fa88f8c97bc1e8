/** Collects the frames a provider emits and lets a test wait for one, in emission order. */
export interface FrameLog {
  readonly frames: Frame[];
  emit(frame: unknown): void;
  /** Resolves with the first frame (already seen or still to come) that matches. */
  waitFor(matches: (frame: Frame) => boolean): Promise<Frame>;
  /** The SDK event types of this thread's `sdk/message` frames, in order. */
  sdkTypes(): string[];
}

export interface Frame {
  jsonrpc: '2.0';
  method: string;
  // SDK payloads are read loosely in tests, as the pipeline reads them.
  params: { threadId: string; message?: { type: string; [key: string]: any }; error?: { message: string } };
}

export function createFrameLog(): FrameLog {
  const frames: Frame[] = [];
  let waiters: Array<{ matches: (frame: Frame) => boolean; resolve: (frame: Frame) => void }> = [];
  return {
    frames,
    emit(frame) {
      const typed = frame as Frame;
      frames.push(typed);
      const [ready, waiting] = partition(waiters, (waiter) => waiter.matches(typed));
      waiters = waiting;
      ready.forEach((waiter) => waiter.resolve(typed));
    },
    waitFor(matches) {
      const seen = frames.find(matches);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ matches, resolve }));
    },
    sdkTypes: () => frames.filter((frame) => frame.method === 'sdk/message').map((frame) => frame.params.message!.type),
  };
}

export const isMethod = (method: string) => (frame: Frame) => frame.method === method;
export const isSdk = (type: string) => (frame: Frame) => frame.method === 'sdk/message' && frame.params.message?.type === type;

function partition<T>(items: T[], predicate: (item: T) => boolean): [T[], T[]] {
  return [items.filter(predicate), items.filter((item) => !predicate(item))];
}
