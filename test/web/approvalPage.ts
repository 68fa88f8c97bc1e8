import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { lastValueFrom, from } from 'rxjs';
import type { AgentModel } from '../../src/protocol/hostModelCommands';
import type { NewThreadEvent } from '../../src/protocol/threadEvents';
import { publishingStore } from '../../src/server/sse/publishingStore';
import type { RunningServer } from '../../src/server/startServer';
import { fakeProvider, type FakeProvider } from '../helpers/fakes/provider';
import { agentEnd, agentStart, assistantStart, textDelta } from '../helpers/server/frames';

export const WAIT = { timeout: 30_000 };

/** The page as `npm start` serves it: built by the project's own build when src/web is newer than dist/web. */
export function buildPage(): void {
  const built = spawnSync(process.execPath, [path.resolve(__dirname, '..', '..', 'src', 'build', 'ensureBuilt.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the page could not be built');
}

/** A fake agent with a one-model catalog, so the new-thread form offers it by name. */
export function catalogProvider(id: string, model: string): FakeProvider {
  const provider = fakeProvider(id);
  const models: AgentModel[] = [{ provider: id, model, name: model, available: true }];
  return { ...provider, listModels: async () => models };
}

/**
 * Appends rows to a thread as the daemons' pipelines do: through the store that publishes each stored batch
 * to the SSE streams, so an open page receives them live and a reload reads them back.
 */
export function rowWriter(server: RunningServer, threadId: string) {
  const store = publishingStore(server.store, server.hub);
  return async (turnId: string, rows: Array<[type: string, data: Record<string, unknown>]>): Promise<void> => {
    const events = rows.map(
      ([type, data]) =>
        ({ threadId, type, turnId, scope: { kind: 'turn', turnId }, data: { providerThreadId: threadId, ...data } }) as NewThreadEvent,
    );
    await lastValueFrom(from(store.append(events)));
  };
}

export function question(approvalId: string, command: string, permissionMode = 'ask'): [string, Record<string, unknown>] {
  return [
    'approval/requested',
    {
      approvalId,
      subject: { kind: 'execute', title: `Run ${command}`, toolCallId: `call-${approvalId}`, command, paths: ['/work/demo'] },
      options: [
        { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
      permissionMode,
    },
  ];
}

/**
 * Answers the page's calls to `route` (a glob) with `status` and `body`, and records what the page sent:
 * the routes of issue 27 answered as the server would, for rows no daemon asked.
 */
export async function answerCalls(
  page: Page,
  route: string,
  status: number,
  body: unknown,
): Promise<Array<{ method: string; body: unknown }>> {
  const seen: Array<{ method: string; body: unknown }> = [];
  await page.unroute(route);
  await page.route(route, async (call) => {
    seen.push({ method: call.request().method(), body: call.request().postDataJSON() });
    const problem = status >= 400;
    await call.fulfill({
      status,
      contentType: problem ? 'application/problem+json' : 'application/json',
      body: JSON.stringify(body),
    });
  });
  return seen;
}

/**
 * A fake agent that asks before it "runs" a command, as an ACP agent's `session/request_permission` does: a
 * prompt starts a turn, asks through the daemon's `askUser`, then answers with the decision it got and ends.
 */
export function askingProvider(id: string, model: string, command: string): FakeProvider {
  const base = catalogProvider(id, model);
  return {
    ...base,
    async openThread(options) {
      const thread = await base.openThread({ ...options, emit: () => undefined });
      const { threadId, emit, askUser } = options;
      return {
        ...thread,
        async prompt(text) {
          emit({ jsonrpc: '2.0', method: `${id}/prompt/started`, params: { threadId } });
          emit(agentStart(threadId));
          emit(assistantStart(threadId));
          emit(textDelta(threadId, `About to: ${text}. `));
          // The answer comes later (the user's click): the prompt itself is accepted at once.
          void (
            askUser
              ? askUser({
                  subject: { kind: 'execute', title: `Run ${command}`, command, paths: [options.cwd] },
                  options: [
                    { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
                    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
                  ],
                })
              : Promise.resolve({ outcome: 'cancelled' as const, decidedBy: 'cancelled' as const, reason: 'no askUser' })
          ).then((decision) => {
            const said = `About to: ${text}. Decision: ${decision.outcome === 'selected' ? decision.optionKind : decision.reason}.`;
            emit(textDelta(threadId, `Decision: ${decision.outcome === 'selected' ? decision.optionKind : decision.reason}.`));
            emit(agentEnd(threadId, said));
            emit({ jsonrpc: '2.0', method: `${id}/prompt/settled`, params: { threadId } });
          });
        },
      };
    },
  };
}
