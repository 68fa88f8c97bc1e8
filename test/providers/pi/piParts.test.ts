import { expect } from 'chai';
import type { AgentSessionEvent } from '@mariozechner/pi-coding-agent';
import { announceRetries } from '../../../src/daemon/providers/pi/announceRetries';
import { parseModelRef } from '../../../src/daemon/providers/pi/modelRef';
import { asksFirst, toolsForPermissionMode } from '../../../src/daemon/providers/pi/permissionMode';
import { toolCallSubject } from '../../../src/daemon/providers/pi/toolCallSubject';
import { promptSettledFrame } from '../../../src/daemon/providers/pi/piFrames';

const event = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra }) as unknown as AgentSessionEvent;

describe('pi provider parts', () => {
  describe('announceRetries', () => {
    const run = async (events: AgentSessionEvent[]) => {
      const delivered: Array<Record<string, unknown>> = [];
      const deliver = announceRetries((e) => delivered.push(e as unknown as Record<string, unknown>));
      events.forEach(deliver);
      await Promise.resolve();
      return delivered;
    };

    it('sets willRetry: true on the agent_end that pi follows with auto_retry_start, keeping the order', async () => {
      const delivered = await run([event('agent_end', { messages: [] }), event('auto_retry_start', { attempt: 1 }), event('agent_start')]);
      expect(delivered.map((e) => [e.type, e.willRetry])).to.deep.equal([
        ['agent_end', true],
        ['auto_retry_start', undefined],
        ['agent_start', undefined],
      ]);
    });

    it('sets willRetry: false on an agent_end nothing follows within the same tick', async () => {
      const delivered = await run([event('agent_end', { messages: [] })]);
      expect(delivered).to.deep.equal([{ type: 'agent_end', messages: [], willRetry: false }]);
    });

    it('passes an agent_end that already says willRetry (pi 1.x) unchanged and at once', () => {
      const delivered: unknown[] = [];
      announceRetries((e) => delivered.push(e))(event('agent_end', { messages: [], willRetry: true }));
      expect(delivered).to.deep.equal([{ type: 'agent_end', messages: [], willRetry: true }]);
    });
  });

  describe('parseModelRef', () => {
    const cases: Array<[string, { provider: string; modelId: string } | RegExp]> = [
      ['fake/fake-model', { provider: 'fake', modelId: 'fake-model' }],
      ['openrouter/anthropic/claude-sonnet-4', { provider: 'openrouter', modelId: 'anthropic/claude-sonnet-4' }],
      ['no-provider', /provider\/modelId/],
      ['/model', /provider\/modelId/],
      ['provider/', /provider\/modelId/],
    ];
    for (const [input, expected] of cases) {
      it(`${input} → ${expected instanceof RegExp ? 'error' : `${expected.provider} + ${expected.modelId}`}`, () => {
        if (expected instanceof RegExp) expect(() => parseModelRef(input)).to.throw(expected);
        else expect(parseModelRef(input)).to.deep.equal(expected);
      });
    }
  });

  it('accept-edits (and no mode) gives pi its default tools, none of which downloads a binary', () => {
    expect(toolsForPermissionMode('accept-edits')).to.deep.equal(['read', 'bash', 'edit', 'write']);
    expect(toolsForPermissionMode(undefined)).to.deep.equal(['read', 'bash', 'edit', 'write']);
    expect(() => toolsForPermissionMode('plan')).to.throw(/not supported/);
  });

  it('every mode runs pi with its default tools; only ask asks, and never before reading', () => {
    expect(toolsForPermissionMode('ask')).to.deep.equal(['read', 'bash', 'edit', 'write']);
    expect(toolsForPermissionMode('full-access')).to.deep.equal(['read', 'bash', 'edit', 'write']);
    const tools = ['bash', 'edit', 'write', 'my_extension_tool', 'read', 'ls', 'grep', 'find'];
    expect(tools.filter((tool) => asksFirst('ask', tool))).to.deep.equal(['bash', 'edit', 'write', 'my_extension_tool']);
    expect(tools.filter((tool) => asksFirst('accept-edits', tool))).to.deep.equal([]);
    expect(tools.filter((tool) => asksFirst('full-access', tool))).to.deep.equal([]);
  });

  describe('toolCallSubject', () => {
    const cases: Array<[string, Record<string, unknown>, { kind: string; title: string; paths: string[] }]> = [
      ['read', { path: 'src/a.ts' }, { kind: 'read', title: 'read /work/p/src/a.ts', paths: ['/work/p/src/a.ts'] }],
      ['ls', { path: '@docs' }, { kind: 'read', title: 'ls /work/p/docs', paths: ['/work/p/docs'] }],
      ['grep', { pattern: 'x', path: '/etc' }, { kind: 'search', title: 'grep /etc', paths: ['/etc'] }],
      ['my_extension_tool', { query: 'q' }, { kind: 'other', title: 'my_extension_tool', paths: [] }],
    ];
    for (const [toolName, input, expected] of cases) {
      it(`${toolName} ${JSON.stringify(input)} → ${expected.kind}`, () => {
        expect(toolCallSubject({ toolName, toolCallId: 'call_1', input }, '/work/p')).to.deep.equal({ ...expected, toolCallId: 'call_1' });
      });
    }
  });

  it('a settle carries only a message for an error, so any thrown value becomes readable', () => {
    expect(promptSettledFrame('pi', 'thr_1')).to.deep.equal({ jsonrpc: '2.0', method: 'pi/prompt/settled', params: { threadId: 'thr_1' } });
    expect(promptSettledFrame('pi', 'thr_1', new Error('no API key')).params).to.deep.equal({
      threadId: 'thr_1',
      error: { message: 'no API key' },
    });
  });
});
