import { expect } from 'chai';
import path from 'node:path';
import { spawnCrashChild, type CrashChild } from './harness';
import type { DeleteStep } from './deleteSteps';

const TOKEN = 'delete-crash-token-0123456789abcdef';

/** One run of the delete crash test's server process (childDeleteServer.ts) on a data dir that outlives it. */
export interface DeleteCrashServer {
  child: CrashChild;
  url: string;
  call(pathname: string, init?: { method?: string; body?: unknown }): Promise<Response>;
  json(pathname: string, init?: { method?: string; body?: unknown }): Promise<any>;
}

/** Starts the server on `dataDir` (and `databaseUrl` when set), armed to die at `killAt`; resolves once its unfinished deletes are done. */
export async function startDeleteCrashServer(options: {
  dataDir: string;
  databaseUrl?: string;
  killAt?: DeleteStep;
}): Promise<DeleteCrashServer> {
  const args = ['--port', '0', '--data-dir', options.dataDir, '--token', TOKEN, '--turn-grace-ms', '300'];
  if (options.databaseUrl) args.push('--database-url', options.databaseUrl);
  const env = {
    CRASH_TRANSPILE_CACHE: path.join(options.dataDir, 'transpiled'),
    ...(options.killAt ? { CRASH_DELETE_AT: options.killAt } : {}),
  };
  const child = spawnCrashChild('test/helpers/crash/childDeleteServer.ts', args, env);
  const url = /^listening on (\S+)$/.exec(await child.line(/^listening on /))![1]!;
  await child.line(/^no deletes left$/);
  const call = (pathname: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${url}/api/v1${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const json = async (pathname: string, init?: { method?: string; body?: unknown }) => {
    const response = await call(pathname, init);
    const text = await response.text();
    if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${pathname} → ${response.status} ${text}`);
    return JSON.parse(text);
  };
  return { child, url, call, json };
}

/** A row a client saw acknowledged. */
export interface AckedRow {
  id: string;
  seq: number;
}

/** A thread the test deleted (or tried to) before a kill, and what it must look like after. */
export interface CrashedThread {
  id: string;
  acked: AckedRow[];
  /** `whole` or `gone` when the kill's step decides it; `either` for a kill at a random moment. */
  expected: 'whole' | 'gone' | 'either';
  /** The delete answered 204 before the kill: the thread must be gone. */
  answered: boolean;
  context: string;
}

/**
 * A thread with rows of every kind a delete meets: a turn left open (the fake agent's `hang`) and renames
 * after it. Resolves with the thread's id and every row a read showed, all acknowledged.
 */
export async function threadWithRows(
  server: DeleteCrashServer,
  projectId: string,
  title: string,
): Promise<{ id: string; acked: AckedRow[] }> {
  const thread = await server.json('/threads', { body: { projectId, provider: 'pi', model: 'fake/model', title } });
  await server.json(`/threads/${thread.id}/messages`, { body: { prompt: 'hang' } });
  for (;;) {
    const rows = await server.json(`/threads/${thread.id}/events?limit=1000`);
    if (rows.some((row: { type: string }) => row.type === 'item/agentMessage/delta')) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (let i = 1; i <= 3; i++) await server.json(`/threads/${thread.id}`, { method: 'PATCH', body: { title: `${title} ${i}` } });
  const rows = await server.json(`/threads/${thread.id}/events?limit=1000`);
  return { id: thread.id, acked: rows.map((row: AckedRow) => ({ id: row.id, seq: row.seq })) };
}

/** What a restarted server shows of a thread: all of it (record, every acked row, seqs 1..n) or nothing (404 everywhere). */
export async function expectWholeOrGone(server: DeleteCrashServer, thread: CrashedThread): Promise<'whole' | 'gone'> {
  const { context } = thread;
  const status = (await server.call(`/threads/${thread.id}`)).status;
  expect([200, 404], `${context}: GET thread`).to.include(status);
  const listed = (await server.json('/threads')).map((view: { id: string }) => view.id);
  if (status === 404) {
    expect((await server.call(`/threads/${thread.id}/events`)).status, `${context}: events of a gone thread`).to.equal(404);
    expect(listed, `${context}: a gone thread is not listed`).to.not.include(thread.id);
  } else {
    expect(listed, `${context}: a whole thread is listed`).to.include(thread.id);
    const rows: AckedRow[] = await server.json(`/threads/${thread.id}/events?limit=1000`);
    expect(
      rows.map((row) => row.seq),
      `${context}: gapless seqs`,
    ).to.deep.equal(rows.map((_, i) => i + 1));
    expect(
      rows.slice(0, thread.acked.length).map(({ id, seq }) => ({ id, seq })),
      `${context}: every acked row`,
    ).to.deep.equal(thread.acked);
  }
  const found = status === 404 ? 'gone' : 'whole';
  if (thread.answered) expect(found, `${context}: the delete answered 204 before the kill`).to.equal('gone');
  if (thread.expected !== 'either') expect(found, context).to.equal(thread.expected);
  return found;
}
