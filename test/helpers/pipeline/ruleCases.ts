import * as b from './sdk';

/**
 * Rules E1–E7 (and the pi 1.x / 0.73 retry and stop rules) as one table: frames in, and what happens, as
 * `kind[:detail]` strings. Run against the pure reducer (test/operators/turnRules.test.ts) and, in marbles,
 * against the whole pipeline (test/pipelines/rules.test.ts).
 */
export interface RuleCase {
  name: string;
  frames: unknown[];
  expected: string[];
  turnOpenAfter?: boolean;
}

const T = 'thr_1';
const user = b.userMessage('hi');
const reply = (text: string, options: Parameters<typeof b.assistantMessage>[1] = {}) => b.streamedReply(T, [text], options);
const closing = ['itemCompleted:Hi', 'tokenUsage', 'turnCompleted:completed', 'contextWindowUsage'];
const streamed = ['itemStarted', 'delta:Hi'];

export const RULE_CASES: RuleCase[] = [
  {
    name: 'E1 agent_start opens a turn and emits turn/started',
    frames: [b.sdk(T, b.agentStart())],
    expected: ['turnStarted:agent'],
    turnOpenAfter: true,
  },
  {
    name: 'E1 a second agent_start while a turn is open opens nothing',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, b.agentStart())],
    expected: ['turnStarted:agent'],
    turnOpenAfter: true,
  },
  {
    name: 'E1 prompt/started before agent_start makes the turn client-started',
    frames: [b.promptStarted(T), b.sdk(T, b.agentStart())],
    expected: ['turnStarted:client'],
  },
  {
    name: 'E2 a valid agent_end closes the turn in the spec order',
    frames: [b.sdk(T, b.agentStart()), ...reply('Hi').frames, b.sdk(T, b.agentEnd([user, reply('Hi').final]))],
    expected: ['turnStarted:agent', ...streamed, 'itemCompleted:Hi', 'tokenUsage', 'turnCompleted:completed', 'contextWindowUsage'],
    turnOpenAfter: false,
  },
  {
    name: 'E2 the final text is completed at agent_end when message_end never came',
    frames: [b.sdk(T, b.agentStart()), ...reply('Hi').frames.slice(0, -1), b.sdk(T, b.agentEnd([reply('Hi').final]))],
    expected: ['turnStarted:agent', ...streamed, ...closing],
  },
  {
    name: 'E2 a final text that was never streamed still becomes an item',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, b.agentEnd([b.assistantMessage('Hi')]))],
    expected: ['turnStarted:agent', 'itemStarted', ...closing],
  },
  {
    name: 'E2 a stop error in the last assistant message fails the turn with its message',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, b.agentEnd([user, b.assistantMessage('', { stopReason: 'error', errorMessage: 'boom' })]))],
    expected: ['turnStarted:agent', 'tokenUsage', 'turnCompleted:failed(boom)', 'contextWindowUsage'],
  },
  {
    name: 'E2 an aborted last assistant message interrupts the turn',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, b.agentEnd([b.assistantMessage('', { stopReason: 'aborted' })]))],
    expected: ['turnStarted:agent', 'tokenUsage', 'turnCompleted:interrupted', 'contextWindowUsage'],
  },
  {
    name: 'E3 a custom message with string content still completes an agent-started turn',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, b.agentEnd([b.customMessage('check the build'), b.assistantMessage('Hi')]))],
    expected: ['turnStarted:agent', 'itemStarted', ...closing],
  },
  {
    name: 'E3 a user message with string content still completes a client-started turn',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([{ role: 'user', content: 'plain string', timestamp: 1 }, b.assistantMessage('Hi')])),
      b.promptSettled(T),
    ],
    expected: ['turnStarted:client', 'itemStarted', ...closing],
  },
  {
    name: 'E3 absent content, unknown roles, a pi 1.x system message and extra fields are accepted',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(
        T,
        b.agentEnd(
          [{ role: 'system', content: 'You are pi' }, { role: 'reviewer', note: 1 }, { role: 'toolResult' }, b.assistantMessage('Hi')],
          { extra: true },
        ),
      ),
    ],
    expected: ['turnStarted:agent', 'itemStarted', ...closing],
  },
  {
    name: 'E4 agent_end with messages that are not an array emits only provider/unhandled and keeps the turn open',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, { type: 'agent_end', messages: 'nope' })],
    expected: ['turnStarted:agent', 'unhandled:sdk/agent_end'],
    turnOpenAfter: true,
  },
  {
    name: 'E4 agent_end with an element without a string role keeps the turn open',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, { type: 'agent_end', messages: [{ role: 7 }] })],
    expected: ['turnStarted:agent', 'unhandled:sdk/agent_end'],
    turnOpenAfter: true,
  },
  {
    name: 'E4 then E5: prompt/settled closes the turn a broken agent_end left open',
    frames: [b.promptStarted(T), b.sdk(T, b.agentStart()), b.sdk(T, { type: 'agent_end' }), b.promptSettled(T)],
    expected: ['turnStarted:client', 'unhandled:sdk/agent_end', 'turnCompleted:completed'],
    turnOpenAfter: false,
  },
  {
    name: 'E4 then stop: a user stop closes the turn a broken agent_end left open',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, { type: 'agent_end' }), b.stop(T)],
    expected: ['turnStarted:agent', 'unhandled:sdk/agent_end', 'turnCompleted:interrupted'],
    turnOpenAfter: false,
  },
  {
    name: 'E5 prompt/settled after agent_end is a no-op (completed exactly once)',
    frames: [b.promptStarted(T), b.sdk(T, b.agentStart()), b.sdk(T, b.agentEnd([b.assistantMessage('Hi')])), b.promptSettled(T)],
    expected: ['turnStarted:client', 'itemStarted', ...closing],
  },
  {
    name: 'E5 prompt/settled while the run still streams does not split the run; agent_end closes it with its text',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.promptSettled(T),
      ...reply('Hi').frames,
      b.sdk(T, b.agentEnd([reply('Hi').final])),
    ],
    expected: ['turnStarted:client', ...streamed, ...closing],
  },
  {
    name: 'E5 a follow-up prompt that settles at once while the run streams does not close the turn',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.promptStarted(T),
      b.promptSettled(T),
      ...reply('Hi').frames,
      b.sdk(T, b.agentEnd([reply('Hi').final])),
      b.promptSettled(T),
    ],
    expected: ['turnStarted:client', ...streamed, ...closing],
  },
  {
    name: 'E5 a late settle of the previous prompt does not close the next, agent-started turn',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('Hi')])),
      b.sdk(T, b.agentStart()),
      b.promptSettled(T),
      b.sdk(T, { type: 'agent_end' }),
    ],
    expected: ['turnStarted:client', 'itemStarted', ...closing, 'turnStarted:agent', 'unhandled:sdk/agent_end'],
    turnOpenAfter: true,
  },
  {
    name: 'E5 a prompt refused before any run (issue 29) is a client turn of its own: the prompt, then one failed turn/completed with the reason',
    frames: [b.promptStarted(T, 'pi', 'hi'), b.promptSettled(T, { message: 'No API key' })],
    expected: ['turnStarted:client', 'userMessageStarted:hi', 'userMessageCompleted:hi', 'turnCompleted:failed(No API key)'],
    turnOpenAfter: false,
  },
  {
    name: 'E5 a refused prompt leaves the next waiting prompt waiting: its run opens the next client turn (E7: a new turn id)',
    frames: [
      b.promptStarted(T, 'pi', 'first'),
      b.promptStarted(T, 'pi', 'second'),
      b.promptSettled(T, { message: 'No API key' }),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('Hi')])),
      b.promptSettled(T),
    ],
    expected: [
      'turnStarted:client',
      'userMessageStarted:first',
      'userMessageCompleted:first',
      'turnCompleted:failed(No API key)',
      'turnStarted:client',
      'itemStarted',
      ...closing,
    ],
    turnOpenAfter: false,
  },
  {
    name: 'E5 a settle before agent_start whose prompt/started named no prompt (older senders) reports a provider/error and opens no turn',
    frames: [b.promptStarted(T), b.promptSettled(T, { message: 'No API key' })],
    expected: ['providerError:final'],
    turnOpenAfter: false,
  },
  {
    name: 'E5 a prompt that settles without error before any run (an extension command) opens no turn',
    frames: [b.promptStarted(T, 'pi', '/reload'), b.promptSettled(T)],
    expected: [],
    turnOpenAfter: false,
  },
  {
    name: 'E5 without prompt/started (older daemons) a settle still closes a run-less open turn',
    frames: [b.sdk(T, b.agentStart()), b.sdk(T, { type: 'agent_end' }), b.promptSettled(T, 'model went away')],
    expected: ['turnStarted:agent', 'unhandled:sdk/agent_end', 'turnCompleted:failed(model went away)'],
  },
  {
    name: 'E6 custom message boundaries are unhandled; a user message_end is a userMessage item; assistant, toolResult and (1.x) system ones are silent',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.messageStart(b.customMessage('x'))),
      b.sdk(T, b.messageEnd(b.customMessage('x'))),
      b.sdk(T, b.messageStart(user)),
      b.sdk(T, b.messageEnd(user)),
      b.sdk(T, b.messageStart({ role: 'toolResult', content: [] })),
      b.sdk(T, b.messageEnd({ role: 'toolResult', content: [] })),
      // pi 1.x: a session's first run carries the system prompt as a message with string content.
      b.sdk(T, b.messageStart({ role: 'system', content: 'You are pi' })),
      b.sdk(T, b.messageEnd({ role: 'system', content: 'You are pi' })),
    ],
    expected: [
      'turnStarted:agent',
      'unhandled:sdk/message_start',
      'unhandled:sdk/message_end',
      'userMessageStarted:hi',
      'userMessageCompleted:hi',
    ],
  },
  {
    name: 'userMessage: the prompt comes before the answer in its turn; a follow-up the run takes in comes where it was taken',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.messageStart(user)),
      b.sdk(T, b.messageEnd(user)),
      b.sdk(T, b.messageStart(b.assistantMessage(''))),
      b.sdk(T, b.textDelta('Hi')),
      b.sdk(T, b.messageEnd(b.assistantMessage('Hi'))),
      b.sdk(T, b.messageStart(b.userMessage('and then?'))),
      b.sdk(T, b.messageEnd(b.userMessage('and then?'))),
      b.sdk(T, b.agentEnd([user, b.assistantMessage('Hi'), b.userMessage('and then?'), b.assistantMessage('Hi')])),
      b.promptSettled(T),
    ],
    expected: [
      'turnStarted:client',
      'userMessageStarted:hi',
      'userMessageCompleted:hi',
      'itemStarted',
      'delta:Hi',
      'itemCompleted:Hi',
      'userMessageStarted:and then?',
      'userMessageCompleted:and then?',
      'tokenUsage',
      'turnCompleted:completed',
      'contextWindowUsage',
    ],
    turnOpenAfter: false,
  },
  {
    name: 'userMessage: an assistant message whose message_end was lost completes before the user message; string content is one text part',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.messageStart(b.assistantMessage(''))),
      b.sdk(T, b.textDelta('Hel')),
      b.sdk(T, b.messageEnd({ role: 'user', content: 'plain string', timestamp: 1 })),
      b.sdk(T, b.textDelta('lo')),
    ],
    expected: [
      'turnStarted:agent',
      'itemStarted',
      'delta:Hel',
      'itemCompleted:Hel',
      'userMessageStarted:plain string',
      'userMessageCompleted:plain string',
      'itemStarted',
      'delta:lo',
    ],
    turnOpenAfter: true,
  },
  ...['bashExecution', 'branchSummary', 'compactionSummary'].map((role) => ({
    name: `E6 ${role} message boundaries become provider/unhandled rows`,
    frames: [b.sdk(T, b.messageStart({ role })), b.sdk(T, b.messageEnd({ role }))],
    expected: ['unhandled:sdk/message_start', 'unhandled:sdk/message_end'],
  })),
  {
    name: 'E7 each new turn gets a new id; events of a turn share it',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('Hi')])),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('Hi')])),
    ],
    expected: ['turnStarted:agent', 'itemStarted', ...closing, 'turnStarted:agent', 'itemStarted', ...closing],
  },
  {
    name: 'text comes from deltas, never from the snapshots that run ahead',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.messageStart(b.assistantMessage(''))),
      b.sdk(T, b.textDelta('Hel', 'Hello wor')),
      b.sdk(T, b.textDelta('lo', 'Hello world!')),
      b.sdk(T, b.messageEnd(b.assistantMessage('Hello world!'))),
    ],
    expected: ['turnStarted:agent', 'itemStarted', 'delta:Hel', 'delta:lo', 'itemCompleted:Hello'],
  },
  {
    name: 'two assistant messages in one run (tool use) are two items',
    frames: [
      b.sdk(T, b.agentStart()),
      ...reply('Hi').frames,
      ...reply('Hi').frames,
      b.sdk(T, b.agentEnd([reply('Hi').final, reply('Hi').final])),
    ],
    expected: [
      'turnStarted:agent',
      ...streamed,
      'itemCompleted:Hi',
      ...streamed,
      'itemCompleted:Hi',
      'tokenUsage',
      'turnCompleted:completed',
      'contextWindowUsage',
    ],
  },
  {
    name: 'recognised SDK events without a thread event emit nothing; unknown ones are unhandled',
    frames: [
      ...[
        'turn_start',
        'queue_update',
        'auto_retry_end',
        'compaction_start',
        'compaction_end',
        'entry_appended',
        'session_info_changed',
        'thinking_level_changed',
      ].map((type) => b.sdk(T, { type })),
      b.sdk(T, b.turnEnd(b.assistantMessage('x'))),
      b.sdk(T, {
        type: 'message_update',
        message: b.assistantMessage(''),
        assistantMessageEvent: { type: 'thinking_delta', delta: 'hmm' },
      }),
      b.sdk(T, { type: 'brand_new_event' }),
    ],
    expected: ['unhandled:sdk/brand_new_event'],
  },
  {
    name: 'willRetry (pi 1.x) keeps the turn open; the retried run continues the same turn',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('', { stopReason: 'error', errorMessage: 'overloaded' })], { willRetry: true })),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('Hi')], { willRetry: false })),
    ],
    expected: ['turnStarted:agent', 'providerError:willRetry', 'itemStarted', ...closing],
  },
  {
    name: 'pi 0.73 auto-retry: the failed turn completes, provider/error says it retries, the retry is a client turn its settle matches',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([user, b.assistantMessage('', { stopReason: 'error', errorMessage: 'terminated' })])),
      b.sdk(T, { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: 'terminated' }),
      b.sdk(T, b.agentStart()),
      b.sdk(T, { type: 'agent_end' }),
      b.sdk(T, { type: 'auto_retry_end', success: true, attempt: 1 }),
      b.promptSettled(T),
    ],
    expected: [
      'turnStarted:client',
      'tokenUsage',
      'turnCompleted:failed(terminated)',
      'contextWindowUsage',
      'providerError:willRetry',
      'turnStarted:client',
      'unhandled:sdk/agent_end',
      'turnCompleted:completed',
    ],
    turnOpenAfter: false,
  },
  {
    name: 'pi 0.73: without auto_retry_start a late settle still never reaches the next agent-started turn',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('', { stopReason: 'error', errorMessage: 'boom' })])),
      b.sdk(T, b.agentStart()),
      b.sdk(T, { type: 'agent_end' }),
      b.promptSettled(T),
    ],
    expected: [
      'turnStarted:client',
      'tokenUsage',
      'turnCompleted:failed(boom)',
      'contextWindowUsage',
      'turnStarted:agent',
      'unhandled:sdk/agent_end',
    ],
    turnOpenAfter: true,
  },
  {
    name: 'pi 1.x: auto_retry_start after agent_end {willRetry} adds no second provider/error',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('', { stopReason: 'error', errorMessage: 'overloaded' })], { willRetry: true })),
      b.sdk(T, { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: 'overloaded' }),
    ],
    expected: ['turnStarted:agent', 'providerError:willRetry'],
  },
  {
    name: 'agent_settled (pi 1.x) closes a turn whose retry was abandoned during backoff',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('', { stopReason: 'error', errorMessage: 'overloaded' })], { willRetry: true })),
      b.sdk(T, { type: 'agent_settled', aborted: false }),
    ],
    expected: ['turnStarted:agent', 'providerError:willRetry', 'turnCompleted:failed(overloaded)'],
    turnOpenAfter: false,
  },
  {
    name: 'agent_settled with aborted closes an open turn as interrupted; after agent_end it is a no-op',
    frames: [
      b.sdk(T, b.agentStart()),
      b.sdk(T, { type: 'agent_end' }),
      b.sdk(T, { type: 'agent_settled', aborted: true }),
      b.sdk(T, { type: 'agent_settled', aborted: false }),
    ],
    expected: ['turnStarted:agent', 'unhandled:sdk/agent_end', 'turnCompleted:interrupted'],
  },
  {
    name: 'a stop while the run streams waits for the aborted agent_end, which closes the turn once as interrupted',
    frames: [
      b.promptStarted(T),
      b.sdk(T, b.agentStart()),
      ...reply('Hi').frames,
      b.stop(T),
      b.sdk(T, b.agentEnd([b.assistantMessage('Hi', { stopReason: 'aborted' })])),
      b.promptSettled(T),
      b.stop(T),
    ],
    expected: ['turnStarted:client', ...streamed, 'itemCompleted:Hi', 'tokenUsage', 'turnCompleted:interrupted', 'contextWindowUsage'],
  },
  {
    name: 'a stop with no open turn does nothing',
    frames: [b.stop(T)],
    expected: [],
  },
  ...TOOL_CASES(),
];

/** Tool activity as items (docs/events.md "Tool items"). */
function TOOL_CASES(): RuleCase[] {
  const start = b.sdk(T, b.agentStart());
  const bash = (id = 'call_1', command = 'make') => b.sdk(T, b.toolStart(id, 'bash', { command }));
  const output = (text: string, totalBytes?: number) => b.sdk(T, b.toolOutput('call_1', text, totalBytes));
  const bashEnd = (text: string, isError = false) => b.sdk(T, b.toolEnd('call_1', 'bash', text, { isError }));
  return [
    {
      name: 'tools: a bash run is a commandExecution item whose output snapshots become deltas',
      frames: [start, bash(), output(''), output('a\n'), output('a\nb\n'), bashEnd('a\nb\n')],
      expected: [
        'turnStarted:agent',
        'toolStarted:commandExecution:call_1',
        'output:a\n',
        'output:b\n',
        'toolCompleted:commandExecution:completed(0)',
      ],
      turnOpenAfter: true,
    },
    {
      name: 'tools: a command that exits non-zero completes failed with its exit code',
      frames: [start, bash(), bashEnd('oops\n\nCommand exited with code 2', true)],
      expected: ['turnStarted:agent', 'toolStarted:commandExecution:call_1', 'toolCompleted:commandExecution:failed(2)'],
    },
    {
      name: 'tools: once pi truncates the head of its snapshot, totalBytes tells which bytes are new',
      frames: [start, bash(), output('1\n2\n'), output('2\n3\n', 6), output('2\n3\n', 6)],
      expected: ['turnStarted:agent', 'toolStarted:commandExecution:call_1', 'output:1\n2\n', 'output:3\n'],
    },
    {
      name: 'tools: a snapshot that does not extend the last one, without totalBytes, is sent whole',
      frames: [start, bash(), output('abc'), output('xyz')],
      expected: ['turnStarted:agent', 'toolStarted:commandExecution:call_1', 'output:abc', 'output:xyz'],
    },
    {
      name: 'tools: edit and write are fileChange items; read and others are toolCall items; isError fails them',
      frames: [
        start,
        b.sdk(T, b.toolStart('w', 'write', { path: 'a.txt', content: 'x' })),
        b.sdk(T, b.toolEnd('w', 'write', 'Successfully wrote 1 bytes to a.txt')),
        b.sdk(T, b.toolStart('e', 'edit', { path: 'a.txt', edits: [] })),
        b.sdk(T, b.toolEnd('e', 'edit', 'ok', { details: { diff: '-1 x\n+1 y' } })),
        b.sdk(T, b.toolStart('r', 'read', { path: 'missing.txt' })),
        b.sdk(T, b.toolEnd('r', 'read', 'ENOENT', { isError: true })),
      ],
      expected: [
        'turnStarted:agent',
        'toolStarted:fileChange:w',
        'toolCompleted:fileChange:completed',
        'toolStarted:fileChange:e',
        'toolCompleted:fileChange:completed',
        'toolStarted:toolCall:r',
        'toolCompleted:toolCall:failed',
      ],
    },
    {
      name: 'tools: parallel tools complete in the order pi ends them; a repeated start and updates of other tools add nothing',
      frames: [
        start,
        bash('call_1'),
        b.sdk(T, b.toolStart('r', 'read', { path: 'x' })),
        bash('call_1'),
        b.sdk(T, {
          type: 'tool_execution_update',
          toolCallId: 'r',
          toolName: 'read',
          partialResult: { content: [{ type: 'text', text: 'p' }] },
        }),
        b.sdk(T, b.toolEnd('r', 'read', 'x')),
        bashEnd(''),
      ],
      expected: [
        'turnStarted:agent',
        'toolStarted:commandExecution:call_1',
        'toolStarted:toolCall:r',
        'toolCompleted:toolCall:completed',
        'toolCompleted:commandExecution:completed(0)',
      ],
    },
    {
      name: 'tools: a bash call without a string command is shown as a toolCall; an end without a start still shows the tool',
      frames: [
        start,
        b.sdk(T, b.toolStart('odd', 'bash', { cmd: 'ls' })),
        b.sdk(T, b.toolEnd('odd', 'bash', '')),
        b.sdk(T, b.toolEnd('lost', 'bash', 'x')),
      ],
      expected: [
        'turnStarted:agent',
        'toolStarted:toolCall:odd',
        'toolCompleted:toolCall:completed',
        'toolStarted:toolCall:lost',
        'toolCompleted:toolCall:completed',
      ],
    },
    {
      name: 'tools: an event without a toolCallId is provider/unhandled; an update for an unknown tool is silent',
      frames: [
        start,
        b.sdk(T, { type: 'tool_execution_start', toolName: 'bash', args: { command: 'ls' } }),
        b.sdk(T, { type: 'tool_execution_update', toolCallId: 7 }),
        b.sdk(T, { type: 'tool_execution_end' }),
        b.sdk(T, b.toolOutput('nobody', 'x')),
      ],
      expected: [
        'turnStarted:agent',
        'unhandled:sdk/tool_execution_start',
        'unhandled:sdk/tool_execution_update',
        'unhandled:sdk/tool_execution_end',
      ],
    },
    {
      name: 'tools: outside a turn a tool is a thread-scoped item; a lone end outside a turn is ignored',
      frames: [bash(), output('hi'), bashEnd('hi'), b.sdk(T, b.toolEnd('late', 'read', 'x'))],
      expected: ['toolStarted:commandExecution:call_1', 'output:hi', 'toolCompleted:commandExecution:completed(0)'],
      turnOpenAfter: false,
    },
    {
      name: 'tools: a stop mid-command completes the running item as failed before turn/completed; its late end is ignored',
      frames: [
        b.promptStarted(T),
        start,
        bash(),
        output('partial'),
        b.stop(T),
        b.sdk(T, b.agentEnd([b.assistantMessage('', { stopReason: 'aborted' })])),
        bashEnd('partial\n\nCommand aborted', true),
        b.promptSettled(T),
      ],
      expected: [
        'turnStarted:client',
        'toolStarted:commandExecution:call_1',
        'output:partial',
        'toolCompleted:commandExecution:failed',
        'tokenUsage',
        'turnCompleted:interrupted',
        'contextWindowUsage',
      ],
      turnOpenAfter: false,
    },
    {
      name: 'tools: a turn closed by a settle after a broken agent_end completes its running tools first',
      frames: [
        b.promptStarted(T),
        start,
        b.sdk(T, b.toolStart('r', 'read', { path: 'x' })),
        b.sdk(T, { type: 'agent_end' }),
        b.promptSettled(T),
      ],
      expected: [
        'turnStarted:client',
        'toolStarted:toolCall:r',
        'unhandled:sdk/agent_end',
        'toolCompleted:toolCall:failed',
        'turnCompleted:completed',
      ],
    },
  ];
}

/** The same vocabulary for stored rows, so one table checks the reducer and the pipeline. */
export function summariseRow(row: { type: string; data: Record<string, any> }): string {
  const { data } = row;
  switch (row.type) {
    case 'turn/started':
      return `turnStarted:${data['origin']}`;
    case 'turn/completed':
      return `turnCompleted:${data['status']}${data['error'] ? `(${data['error'].message})` : ''}`;
    case 'provider/unhandled':
      return `unhandled:${data['rawType']}`;
    case 'item/started':
      if (data['item'].type === 'userMessage') return `userMessageStarted:${textOfUserItem(data['item'])}`;
      return data['item'].type === 'agentMessage' ? 'itemStarted' : `toolStarted:${data['item'].type}:${data['item'].id}`;
    case 'item/completed': {
      const { item } = data;
      if (item.type === 'userMessage') return `userMessageCompleted:${textOfUserItem(item)}`;
      if (item.type === 'agentMessage') return `itemCompleted:${item.text}`;
      return `toolCompleted:${item.type}:${item.status}${item.exitCode === undefined ? '' : `(${item.exitCode})`}`;
    }
    case 'item/agentMessage/delta':
      return `delta:${data['delta']}`;
    case 'item/commandExecution/outputDelta':
      return `output:${data['delta']}`;
    case 'provider/error':
      return `providerError:${data['willRetry'] ? 'willRetry' : 'final'}`;
    case 'thread/tokenUsage/updated':
      return 'tokenUsage';
    case 'thread/contextWindowUsage/updated':
      return 'contextWindowUsage';
    default:
      return row.type;
  }
}

/** The text parts of a `userMessage` item, joined: what the rule tables compare. */
export function textOfUserItem(item: { content: Array<{ type: string; text?: string }> }): string {
  return item.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('');
}
