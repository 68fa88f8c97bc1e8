import { map, type OperatorFunction } from 'rxjs';
import { errorStep, okStep, type IngestFrame, type Step } from './stageValues';
import type { RuleInput } from '../turns/ruleInput';
import { parseFrame } from '../protocol/parseFrame';

/**
 * Turns raw frames into turn inputs, or into the JSON-RPC error that rejects them. Never errors the stream.
 *
 * ```
 * frames: --a----b----c--|     a: sdk/message   b: "{not json"   c: {method:"nope"}
 * out:    --A----B----C--|     A: ok(sdk input) B: error(-32700) C: error(-32601)
 * ```
 */
export function validate(): OperatorFunction<IngestFrame, Step<RuleInput>> {
  return map((ingestFrame): Step<RuleInput> => {
    if ('input' in ingestFrame) return okStep(ingestFrame.correlationId, ingestFrame.input); // the ingest's own
    const { correlationId, frame } = ingestFrame;
    const parsed = parseFrame(frame);
    return 'error' in parsed ? errorStep(correlationId, parsed.error) : okStep(correlationId, parsed.input);
  });
}
