import type { ClientConnection, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { canDeleteSessions, initializeAgent } from './initializeAgent';
import type { AcpSdk } from './loadAcpSdk';

export interface AcpSessionRequest {
  cwd: string;
  /** The session of an earlier run of this thread, to continue. */
  resumeSessionId?: string;
  /** A model id to switch to, when the agent offers one by that id. */
  modelId?: string;
  /**
   * Turned on for `session/load`, which replays the conversation as updates: history, never stored again. A
   * successful load leaves it on for the caller to turn off when it sends the next prompt: Gemini CLI 0.61 sends
   * its history after answering the load. A failed load turns it off.
   */
  replaying(on: boolean): void;
  log(message: string): void;
}

/** An open session: its id (the thread's `providerThreadId`) and the modes and models the agent reported for it. */
export interface OpenedAcpSession {
  sessionId: string;
  modes: SessionModeState | null | undefined;
  /** The values of the session's `model` config option, with their names (empty when the agent has none). */
  models: ReportedModel[];
  /** The agent deletes sessions over ACP (`session/delete`): a thread delete asks it to. */
  canDelete: boolean;
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
  let sessionId: string | undefined;
  let configOptions: SessionConfigOption[] | null | undefined;
  let modes: SessionModeState | null | undefined;
  if (resumeSessionId !== undefined) {
    try {
      if (init.agentCapabilities?.sessionCapabilities?.resume) {
        ({ configOptions, modes } = await agent.request(sdk.methods.agent.session.resume, {
          sessionId: resumeSessionId,
          cwd,
          mcpServers: [],
        }));
        sessionId = resumeSessionId;
      } else if (init.agentCapabilities?.loadSession) {
        request.replaying(true);
        ({ configOptions, modes } =
          (await agent.request(sdk.methods.agent.session.load, { sessionId: resumeSessionId, cwd, mcpServers: [] })) ?? {});
        sessionId = resumeSessionId;
      }
    } catch (error) {
      request.log(`session ${resumeSessionId} could not be resumed, starting a new one: ${String(error)}`);
      request.replaying(false);
    }
  }
  if (sessionId === undefined) {
    const created = await agent.request(sdk.methods.agent.session.new, { cwd, mcpServers: [] });
    ({ sessionId, configOptions, modes } = created);
  }
  if (request.modelId !== undefined) await selectModel(sdk, connection, sessionId, request.modelId, configOptions);
  return { sessionId, modes, models: modelChoices(modelOption(configOptions)), canDelete: canDeleteSessions(init) };
}

const modelOption = (configOptions: SessionConfigOption[] | null | undefined) =>
  configOptions?.find((candidate) => candidate.id === 'model' || candidate.category === 'model');

/** A `select` option's choices, flattened out of their groups. */
function modelChoices(option: SessionConfigOption | undefined): ReportedModel[] {
  if (option?.type !== 'select') return [];
  return option.options.flatMap((entry) =>
    'value' in entry ? [{ id: entry.value, name: entry.name }] : entry.options.map((o) => ({ id: o.value, name: o.name })),
  );
}

async function selectModel(
  sdk: AcpSdk,
  connection: ClientConnection,
  sessionId: string,
  modelId: string,
  configOptions: SessionConfigOption[] | null | undefined,
): Promise<void> {
  const option = modelOption(configOptions);
  const offered = modelChoices(option).map((model) => model.id);
  if (!option || !offered.includes(modelId)) {
    throw new Error(`the agent offers no model "${modelId}"${offered.length ? ` (it offers: ${offered.join(', ')})` : ''}`);
  }
  await connection.agent.request(sdk.methods.agent.session.setConfigOption, { sessionId, configId: option.id, value: modelId });
}
