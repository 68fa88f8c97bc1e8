import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_PERMISSION_MODE } from '../../../protocol/approvals';
import type { AgentModel } from '../../../protocol/hostModelCommands';
import type { AgentProvider, AgentThread, OpenThreadOptions } from '../agentProvider';
import { acpModelIdOf, DEFAULT_ACP_MODEL } from './acpModel';
import type { AcpAgentSpec } from './acpAgentSpecs';
import { startAcpThread } from './acpThread';
import { DEFAULT_DELETE_TIMEOUT_MS } from './deleteAcpSession';
import { deleteWithBriefAgent } from './deleteWithBriefAgent';
import { explainAcpStartFailure, missingAgentError } from './explainAcpError';
import { findAgentCommand } from './findAgentCommand';
import { acpForkPlan, DEFAULT_FORK_TIMEOUT_MS, forkWithBriefAgent } from './forkAcpSession';
import { loadAcpSdk } from './loadAcpSdk';
import type { ReportedModel } from './openAcpSession';

/** How long a stopped prompt goes on before its agent is ended, when the daemon names no grace (its turn grace's default). */
const DEFAULT_STOP_GRACE_MS = 5_000;

export interface AcpProviderOptions {
  /** The agent's name: the thread's `provider` and the id this provider is registered under. */
  name: string;
  spec: AcpAgentSpec;
  /**
   * The agent's environment. Default: the daemon's own (its PATH, keys and logins), plus the spec's `env`.
   * Tests give a whole one (a fresh HOME, a fake model's base URL).
   */
  env?: NodeJS.ProcessEnv;
  /** Folders searched after PATH for the command. Default: the project's node_modules/.bin (PROJECT_BIN_DIRS). */
  binDirs?: readonly string[];
  /** How long a thread's delete waits for the agent to delete its session (DEFAULT_DELETE_TIMEOUT_MS). */
  deleteTimeoutMs?: number;
  /** How long a fork waits for the agent to fork the session (DEFAULT_FORK_TIMEOUT_MS). */
  forkTimeoutMs?: number;
  log?(message: string): void;
}

/**
 * The node_modules/.bin folders Node would search from here (this project's, run from src/ or dist/), where
 * `npm i @agentclientprotocol/claude-agent-acp` puts the adapter.
 */
export const PROJECT_BIN_DIRS: readonly string[] = (require.resolve.paths('.bin') ?? []).map((folder) => path.join(folder, '.bin'));

/**
 * An ACP agent as a provider: one agent process per thread, spawned over stdio in the thread's folder and
 * spoken to through the official SDK's client. The agent is looked for when a thread opens, so a daemon
 * offering an agent that is not installed still starts and says what to install when a thread needs it.
 */
export function createAcpProvider(options: AcpProviderOptions): AgentProvider {
  const { name, spec } = options;
  const log = options.log ?? ((message: string) => console.error(message));
  const env = { ...(options.env ?? process.env), ...spec.env };
  const afterDelete = spec.afterDelete && ((sessionId: string) => spec.afterDelete!(sessionId, env));
  const beforeLoad = spec.beforeLoad && ((sessionId: string) => spec.beforeLoad!(sessionId, env, (message) => log(`${name}: ${message}`)));
  const find = () => findAgentCommand(spec.command, { path: env['PATH'], binDirs: options.binDirs ?? PROJECT_BIN_DIRS });

  const deleteTimeoutMs = options.deleteTimeoutMs ?? DEFAULT_DELETE_TIMEOUT_MS;
  let reported: ReportedModel[] = [];
  /** Whether the agent offers `session/fork`, as its last `initialize` here said; unknown before one. */
  let offersFork: boolean | undefined;

  return {
    id: name,
    async listModels(): Promise<AgentModel[]> {
      // At least one entry per agent, so a picker can offer it. An agent names its models only inside a session,
      // so the rest are those it offered in the last session this daemon opened (none before the first).
      const available = find() !== undefined;
      return [
        { provider: name, model: `${name}/${DEFAULT_ACP_MODEL}`, name: `${name} (the agent's own default model)`, available },
        ...reported.map((model) => ({ provider: name, model: `${name}/${model.id}`, name: model.name, available })),
      ];
    },
    async openThread(thread: OpenThreadOptions): Promise<AgentThread> {
      const executable = find();
      if (executable === undefined) throw missingAgentError(name, spec);
      const sdk = await loadAcpSdk();
      return startAcpThread(
        {
          sdk,
          name,
          executable,
          args: spec.args,
          env,
          threadId: thread.threadId,
          cwd: thread.cwd,
          modelId: acpModelIdOf(name, thread.model),
          resumeSessionId: thread.resumeProviderThreadId,
          permissionMode: thread.permissionMode ?? DEFAULT_PERMISSION_MODE,
          askUser: thread.askUser,
          emit: thread.emit,
          ...(thread.startTimeoutMs === undefined ? {} : { startTimeoutMs: thread.startTimeoutMs }),
          stopGraceMs: thread.stopGraceMs ?? DEFAULT_STOP_GRACE_MS,
          log,
          deleteTimeoutMs,
          ...(afterDelete ? { afterDelete } : {}),
          ...(spec.removeSessionFiles ? { hostRemovesSession: true } : {}),
          ...(beforeLoad ? { beforeLoad } : {}),
          ...(spec.sessionMeta ? { sessionMeta: spec.sessionMeta } : {}),
          modelsReported: (models) => (reported = models),
          forkOffered: (offered) => (offersFork = offered),
          explainStartFailure: (error, stderr) => explainAcpStartFailure(name, spec, error, stderr),
        },
        thread.signal,
      );
    },
    // A brief agent of its own, whether the source's runs or not: the agents that fork copy the session from disk.
    // One that said it offers no `session/fork` is not started again to hear it.
    async forkSession(request) {
      const plan = acpForkPlan(spec, request);
      if (plan === null || offersFork === false) return null;
      const executable = find();
      if (executable === undefined) throw missingAgentError(name, spec);
      const outcome = await forkWithBriefAgent({
        sdk: await loadAcpSdk(),
        executable,
        args: spec.args,
        env,
        cwd: await folderToStartIn(request.cwd, request.dataDir),
        sessionId: request.providerThreadId,
        meta: plan.meta,
        timeoutMs: options.forkTimeoutMs ?? DEFAULT_FORK_TIMEOUT_MS,
      });
      offersFork = outcome.offered;
      if (!outcome.offered)
        log(`${name}: the agent offers no session/fork, so a fork of session ${request.providerThreadId} starts afresh`);
      return outcome.offered ? outcome.sessionId : null;
    },
    // A thread whose agent runs asks that agent (AgentThread.deleteSession); this starts one for the others, or,
    // for an agent that deletes no sessions over ACP, removes the files itself with no agent (its own is closed).
    async deleteSession(sessionId, dataDir, cwd) {
      if (spec.removeSessionFiles) {
        const removed = await spec.removeSessionFiles(sessionId, env);
        log(
          removed > 0
            ? `${name}: the agent deletes no sessions over ACP, so the host removed session ${sessionId} from the agent's home (${removed} chat file${removed === 1 ? '' : 's'} and what goes with it)`
            : `${name}: the agent deletes no sessions over ACP, and the host found no files of session ${sessionId} in the agent's home`,
        );
        return;
      }
      const executable = find();
      if (executable === undefined) throw missingAgentError(name, spec);
      await deleteWithBriefAgent({
        sdk: await loadAcpSdk(),
        name,
        executable,
        args: spec.args,
        env,
        cwd: await folderToStartIn(cwd, dataDir),
        sessionId,
        ...(afterDelete ? { afterDelete: () => afterDelete(sessionId) } : {}),
        timeoutMs: deleteTimeoutMs,
        log,
      });
    },
  };
}

/** The thread's folder while it exists (its project may be gone by now), else the provider's own data folder. */
async function folderToStartIn(cwd: string | undefined, dataDir: string): Promise<string> {
  if (cwd !== undefined && (await stat(cwd).catch(() => undefined))?.isDirectory()) return cwd;
  await mkdir(dataDir, { recursive: true });
  return dataDir;
}
