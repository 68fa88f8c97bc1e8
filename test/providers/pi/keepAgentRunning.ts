import type { ThreadRecord } from '../../../src/registry/records';
import { keepProviderThreadId, openThreadOnHost } from '../../../src/server/threads/openThreadOnHost';
import type { TestServer } from '../../helpers/server/harness';

/**
 * Marks a thread to keep its agent running and opens it on its host, as the server does at a hello: the
 * agent starts now and its extensions run without a prompt (issue 28). Answers the record, which names the
 * agent's session from then on.
 */
export async function keepAgentRunning(t: TestServer, threadId: string): Promise<ThreadRecord> {
  const deps = { registry: t.server.registry, hosts: t.server.hosts };
  const record = await t.server.registry.threads.put({ ...(await t.server.registry.threads.get(threadId))!, keepAgentRunning: true });
  const opened = await openThreadOnHost(deps, record);
  return keepProviderThreadId(t.server.registry, record, opened.providerThreadId);
}
