import { map, type OperatorFunction } from 'rxjs';
import type { ThreadEvents } from '../../src/operators/stageValues';
import type { Step } from '../../src/operators/stageValues';
import { THREAD_EVENT_TYPE, type NewThreadEvent } from '../../src/protocol/threadEvents';

/** Token shapes that must never reach the store: OpenAI/Anthropic keys, GitHub tokens, AWS access key ids. */
export const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{36,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
];
export const REDACTED = '[REDACTED]';

/**
 * Example stage (between emitEvents and persistWithSeq): masks secrets in assistant text and command output
 * before they are stored (a command that prints an env file is the likelier leak).
 * It sees one delta at a time, so a secret split across two deltas survives in the deltas; `item/completed`
 * carries the whole text and is always masked.
 *
 * ```
 * in:  --d--|   d: delta "key sk-abcdefghijklmnopqrstuvwx"
 * out: --D--|   D: delta "key [REDACTED]"
 * ```
 */
export function redactSecrets(patterns: readonly RegExp[] = SECRET_PATTERNS): OperatorFunction<Step<ThreadEvents>, Step<ThreadEvents>> {
  const redact = (text: string) => patterns.reduce((masked, pattern) => masked.replace(pattern, REDACTED), text);
  const redactEvent = (event: NewThreadEvent): NewThreadEvent => {
    switch (event.type) {
      case THREAD_EVENT_TYPE.itemDelta:
      case THREAD_EVENT_TYPE.commandOutputDelta:
        return { ...event, data: { ...event.data, delta: redact(event.data.delta) } };
      case THREAD_EVENT_TYPE.itemCompleted: {
        const { item } = event.data;
        if (item.type === 'agentMessage') return { ...event, data: { ...event.data, item: { ...item, text: redact(item.text) } } };
        if (item.type === 'commandExecution') {
          return { ...event, data: { ...event.data, item: { ...item, aggregatedOutput: redact(item.aggregatedOutput) } } };
        }
        return event;
      }
      default:
        return event;
    }
  };
  return map((step) => (step.ok ? { ...step, value: { ...step.value, events: step.value.events.map(redactEvent) } } : step));
}
