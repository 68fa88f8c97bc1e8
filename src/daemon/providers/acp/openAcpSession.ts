import type { ClientConnection, NewSessionRequest, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { acpErrorReason } from './explainAcpError';
import { canDeleteSessions, canForkSessions, initializeAgent } from './initializeAgent';
import type { AcpSdk } from './loadAcpSdk';

export interface AcpSessionRequest {
  cwd: string;
  /** The session of an earlier run of this thread, to continue. */
  resumeSessionId?: string;
  /** `_meta` of the request that opens the session (`session/new`, `…/load`, `…/resume`), when the agent wants one. */
  meta?: Record<string, unknown> | undefined;
  /** A model id to switch to, when the agent offers one by that id. */
  modelId?: string;
  /**
   * Turned on for `session/load`, which replays the conversation as updates: history, never stored again. A
   * successful load leaves it on for the caller to turn off when it sends the next prompt: Gemini CLI 0.61 sends
   * its history after answering the load. A failed load turns it off.
   */
  replaying(on: boolean): void;
  /**
   * Runs just before `session/load` of `resumeSessionId` (AcpAgentSpec.beforeLoad): Gemini CLI waits out the
   * minute its session was made in, which it would otherwise overwrite.
   */
  beforeLoad?(sessionId: string): Promise<void>;
  log(message: string): void;
}

/** An open session: its id (the thread's `providerThreadId`) and the modes and models the agent reported for it. */
export interface OpenedAcpSession {
  sessionId: string;
  modes: SessionModeState | null | undefined;
  /**
   * The session's models, with their names (empty when the agent has none): the values of its `model` config
   * option (Claude Code, Codex), else its `models` (ACP's unstable model selection, Gemini CLI).
   */
  models: ReportedModel[];
  /** The agent deletes sessions over ACP (`session/delete`): a thread delete asks it to. */
  canDelete: boolean;
  /** The agent forks sessions over ACP (`session/fork`). */
  canFork: boolean;
}

export interface ReportedModel {
  id: string;
  name: string;
}

/**
 * `initialize` (ACP v1) and the thread's session: the earlier one resumed where the agent can (`session/resume`,
 * else `session/load`, whose replayed history is dropped), else a new one; then the thread's model.
 */
export async function openAcpSession(sdk: AcpSdk, connection: ClientConnection, request: AcpSessionRequest): Promise<OpenedAcpSession> {
  const agent = connection.agent;
  const init = await initializeAgent(sdk, connection);
  const { cwd, resumeSessionId } = request;
  const opening: NewSessionRequest = {
    cwd,
    mcpServers: [],
    ...(request.meta ? { _meta: request.meta } : {}),
  };
  let sessionId: string | undefined;
  let opened: SessionAnswer = {};
  if (resumeSessionId !== undefined) {
    try {
      if (init.agentCapabilities?.sessionCapabilities?.resume) {
        opened = await agent.request(sdk.methods.agent.session.resume, { sessionId: resumeSessionId, ...opening });
        sessionId = resumeSessionId;
      } else if (init.agentCapabilities?.loadSession) {
        await request.beforeLoad?.(resumeSessionId);
        request.replaying(true);
        opened = (await agent.request(sdk.methods.agent.session.load, { sessionId: resumeSessionId, ...opening })) ?? {};
        sessionId = resumeSessionId;
      }
    } catch (error) {
      request.log(`session ${resumeSessionId} could not be resumed, starting a new one: ${acpErrorReason(error)}`);
      request.replaying(false);
    }
  }
  if (sessionId === undefined) {
    ({ sessionId, ...opened } = await agent.request(sdk.methods.agent.session.new, opening));
  }
  const models = sessionModels(opened);
  if (request.modelId !== undefined) await selectModel(sdk, connection, sessionId, request.modelId, models);
  return { sessionId, modes: opened.modes, models: models.choices, canDelete: canDeleteSessions(init), canFork: canForkSessions(init) };
}

/**
 * What the session's answer (`session/new`, `…/load`, `…/resume`) tells of its modes and models. `models` is ACP's
 * unstable model selection, which SDK 2.4's types lack but pass through: `{ availableModels: [{ modelId, name }],
 * currentModelId }`, chosen with `session/set_model`.
 */
interface SessionAnswer {
  configOptions?: SessionConfigOption[] | null;
  modes?: SessionModeState | null;
  models?: unknown;
}

/** How the session offers its models: a config option to set, or the `models` field (`session/set_model`). */
interface SessionModels {
  choices: ReportedModel[];
  set?: { option: SessionConfigOption } | { setModel: true };
}

const ModelStateSchema = z.object({
  availableModels: z.array(z.object({ modelId: z.string().min(1), name: z.string().optional() })),
});

function sessionModels(answer: SessionAnswer): SessionModels {
  const option = modelOption(answer.configOptions);
  if (option?.type === 'select') return { choices: modelChoices(option), set: { option } };
  const state = ModelStateSchema.safeParse(answer.models);
  if (!state.success || state.data.availableModels.length === 0) return { choices: [] };
  const choices = state.data.availableModels.map((model) => ({ id: model.modelId, name: model.name ?? model.modelId }));
  return { choices, set: { setModel: true } };
}

const modelOption = (configOptions: SessionConfigOption[] | null | undefined) =>
  configOptions?.find((candidate) => candidate.id === 'model' || candidate.category === 'model');

/** A `select` option's choices, flattened out of their groups. */
function modelChoices(option: SessionConfigOption): ReportedModel[] {
  if (option.type !== 'select') return [];
  return option.options.flatMap((entry) =>
    'value' in entry ? [{ id: entry.value, name: entry.name }] : entry.options.map((o) => ({ id: o.value, name: o.name })),
  );
}

async function selectModel(
  sdk: AcpSdk,
  connection: ClientConnection,
  sessionId: string,
  modelId: string,
  models: SessionModels,
): Promise<void> {
  const offered = models.choices.map((model) => model.id);
  if (!models.set || !offered.includes(modelId)) {
    throw new Error(`the agent offers no model "${modelId}"${offered.length ? ` (it offers: ${offered.join(', ')})` : ''}`);
  }
  if ('option' in models.set) {
    await connection.agent.request(sdk.methods.agent.session.setConfigOption, {
      sessionId,
      configId: models.set.option.id,
      value: modelId,
    });
  } else {
    await connection.agent.request(SET_MODEL, { sessionId, modelId });
  }
}

/** ACP's unstable `session/set_model` (Gemini CLI's `unstable_setSessionModel`), not among SDK 2.4's method names. */
const SET_MODEL = 'session/set_model';
