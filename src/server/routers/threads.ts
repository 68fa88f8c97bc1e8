import Router from '@koa/router';
import { z } from 'zod';
import { newId } from '../../protocol/ids';
import type { ThreadRecord } from '../../registry/records';
import type { AppDeps } from './appDeps';
import { mustGet } from '../http/lookups';
import { keepProviderThreadId, openThreadOnHost } from '../threads/openThreadOnHost';
import { parseInput } from '../http/parseInput';
import { Problem } from '../http/problem';
import { readJsonBody } from '../http/readJsonBody';
import { createThreadViewer, ThreadViewSchema } from '../threads/threadView';
import { addRoute } from './routeSpec';

export const CreateThreadBodySchema = z.strictObject({
  projectId: z.string().min(1),
  /** Defaults to the project's own environment. */
  environmentId: z.string().min(1).optional(),
  provider: z.string().min(1),
  model: z.string().min(1),
  title: z.string().min(1).max(500),
  prompt: z.string().min(1).optional(),
  permissionMode: z.string().min(1).optional(),
});
/** The host's refusal when the thread's agent cannot start or refuses a prompt (docs/api.md). */
const AGENT_FAILED = 'agent_failed';

export const PromptBodySchema = z.strictObject({ prompt: z.string().min(1) });
export const ThreadsQuerySchema = z.strictObject({ projectId: z.string().min(1).optional() });
export const PromptAcceptedSchema = z.strictObject({ threadId: z.string(), followUp: z.boolean() });
export const StopResultSchema = z.strictObject({ threadId: z.string(), seqs: z.array(z.number().int().positive()) });

/** Threads: create, list, read (with status from the host), prompt and stop. */
export function threadsRouter(deps: AppDeps): Router {
  const router = new Router();
  const viewOf = createThreadViewer(deps.hosts, deps.store, deps.presence);

  /** Fails fast, before anything is stored, when the host cannot run that agent (see docs/api.md). */
  const requireAgent = async (hostId: string, provider: string) => {
    const host = await deps.hosts.get(hostId);
    if (host && !host.providers.includes(provider)) {
      throw new Problem(
        409,
        'no_agent_provider',
        `host ${hostId} has no agent provider "${provider}" (it has: ${host.providers.join(', ') || 'none'}); stream events through the intake instead`,
      );
    }
  };

  /**
   * A prompt restarts an agent that failed to start before; the record keeps whichever session runs, and the
   * agent's failure until a prompt runs (`agentError`), so a client reading the thread sees why it is idle.
   */
  const prompt = async (thread: ThreadRecord, text: string) => {
    const result = await deps.hosts
      .call(thread.hostId, 'thread.prompt', { threadId: thread.id, prompt: text })
      .catch(async (error: unknown) => {
        if (error instanceof Problem && error.code === AGENT_FAILED) {
          await keepAgentError(thread.id, { code: error.code, message: error.detail, at: new Date().toISOString() });
        }
        throw error;
      });
    const kept = await keepProviderThreadId(deps.registry, thread, result.providerThreadId);
    return { thread: kept.agentError ? await keepAgentError(kept.id, undefined) : kept, followUp: result.followUp };
  };

  const keepAgentError = async (threadId: string, agentError: ThreadRecord['agentError']): Promise<ThreadRecord> => {
    // Read again: a background re-open or another prompt may have changed the record meanwhile.
    const { agentError: _previous, ...current } = await mustGet(deps.registry.threads, threadId, 'thread');
    return deps.registry.threads.put(agentError ? { ...current, agentError } : current);
  };

  const tag = 'threads';
  addRoute(
    router,
    {
      method: 'post',
      path: '/threads',
      summary: 'Create a thread (and run its first prompt)',
      tag,
      body: CreateThreadBodySchema,
      responses: { 201: { description: 'The thread', schema: ThreadViewSchema } },
    },
    async (ctx) => {
      const body = parseInput(CreateThreadBodySchema, await readJsonBody(ctx, deps.config.maxBodyBytes), 'body');
      const project = await mustGet(deps.registry.projects, body.projectId, 'project');
      const environment = await mustGet(deps.registry.environments, body.environmentId ?? project.environmentId, 'environment');
      if (body.prompt) await requireAgent(environment.hostId, body.provider);
      const draft: ThreadRecord = {
        id: newId('thr'),
        projectId: project.id,
        environmentId: environment.id,
        hostId: environment.hostId,
        provider: body.provider,
        model: body.model,
        title: body.title,
        ...(body.permissionMode ? { permissionMode: body.permissionMode } : {}),
        createdAt: new Date().toISOString(),
      };
      // Opening starts the agent when the host runs its provider: providerThreadId is its session id from now on.
      const opened = await openThreadOnHost(deps, draft);
      let thread = await deps.registry.threads.insert({ ...draft, providerThreadId: opened.providerThreadId });
      if (body.prompt) {
        // The thread exists even when its first prompt fails. An agent that cannot run it (no key, unknown
        // model) is the thread's state, not a failed request: 201, the reason in the body and, from the daemon,
        // as a `provider/error` row (issue 12: the README's tour reads `.id`). Anything else names the thread.
        thread = await prompt(thread, body.prompt).then(
          (result) => result.thread,
          async (error: unknown) => {
            // `prompt` kept the reason on the record as `agentError`.
            if (error instanceof Problem && error.code === AGENT_FAILED) return mustGet(deps.registry.threads, thread.id, 'thread');
            if (error instanceof Problem)
              throw new Problem(error.status, error.code, error.detail, { ...error.extensions, threadId: draft.id });
            throw error;
          },
        );
      }
      ctx.status = 201;
      ctx.set('Location', `/api/v1/threads/${thread.id}`);
      ctx.body = await viewOf(thread);
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads',
      summary: 'Threads, of one project or all',
      tag,
      query: ThreadsQuerySchema,
      responses: { 200: { description: 'Threads with their status', schema: z.array(ThreadViewSchema) } },
    },
    async (ctx) => {
      const query = parseInput(ThreadsQuerySchema, ctx.query, 'query');
      const threads = await deps.registry.threads.find(query.projectId ? { projectId: query.projectId } : {});
      ctx.body = await Promise.all(threads.map(viewOf));
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id',
      summary: 'One thread with its status',
      tag,
      responses: { 200: { description: 'The thread', schema: ThreadViewSchema } },
    },
    async (ctx) => {
      ctx.body = await viewOf(await mustGet(deps.registry.threads, ctx.params.id!, 'thread'));
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/messages',
      summary: 'Prompt the thread’s agent (a follow-up while a turn runs)',
      tag,
      body: PromptBodySchema,
      responses: { 202: { description: 'Accepted', schema: PromptAcceptedSchema } },
    },
    async (ctx) => {
      const thread = await mustGet(deps.registry.threads, ctx.params.id!, 'thread');
      const body = parseInput(PromptBodySchema, await readJsonBody(ctx, deps.config.maxBodyBytes), 'body');
      await requireAgent(thread.hostId, thread.provider);
      // Idempotent; after a restart the host may not have re-opened this thread yet. The prompt's answer names
      // the session that runs, and `prompt` keeps it on the record.
      await openThreadOnHost(deps, thread);
      const { followUp } = await prompt(thread, body.prompt);
      ctx.status = 202;
      ctx.body = { threadId: thread.id, followUp };
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/stop',
      summary: 'Stop the running turn',
      tag,
      responses: { 200: { description: 'Seqs of the rows the stop stored', schema: StopResultSchema } },
    },
    async (ctx) => {
      const thread = await mustGet(deps.registry.threads, ctx.params.id!, 'thread');
      const { seqs } = await deps.hosts.call(thread.hostId, 'thread.stop', { threadId: thread.id });
      ctx.body = { threadId: thread.id, seqs };
    },
  );

  return router;
}
