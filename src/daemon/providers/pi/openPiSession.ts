import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentSession, ExtensionFactory } from '@mariozechner/pi-coding-agent';
import type { PiSdk } from './loadPiSdk';
import { parseModelRef } from './modelRef';
import { toolsForPermissionMode } from './permissionMode';
import { findSessionFile } from './sessionFiles';

export interface PiSessionOptions {
  cwd: string;
  /** `provider/modelId`, looked up in pi's model catalog (built-in models plus `<agentDir>/models.json`). */
  model: string;
  permissionMode?: string;
  /** pi's agent directory: `models.json`, `auth.json`, `settings.json`, global `extensions/`. */
  agentDir: string;
  /** Where this thread's pi session file lives. */
  sessionDir: string;
  /** A pi session id to continue; a new session gets this id when no file exists for it yet. */
  resumeSessionId?: string;
  /** The daemon's own extensions (approvals), loaded after the user's and the project's; nothing is written to disk. */
  extensionFactories?: ExtensionFactory[];
}

/**
 * Creates the pi session of one thread, configured exactly as pi itself would be from `agentDir` and the
 * project's `.pi/` folder (settings, extensions, skills, context files). Extensions are loaded but not yet
 * started: the caller subscribes first, then calls `bindExtensions`, so no event of `session_start` is missed.
 */
export interface OpenedPiSession {
  session: AgentSession;
  /** Extensions pi could not load (pi skips them and runs without them, as the pi CLI does). */
  extensionErrors: Array<{ path: string; error: string }>;
}

export async function openPiSession(sdk: PiSdk, options: PiSessionOptions): Promise<OpenedPiSession> {
  const tools = toolsForPermissionMode(options.permissionMode);
  const { provider, modelId } = parseModelRef(options.model);
  const authStorage = sdk.AuthStorage.create(path.join(options.agentDir, 'auth.json'));
  const modelRegistry = sdk.ModelRegistry.create(authStorage, path.join(options.agentDir, 'models.json'));
  const model = modelRegistry.find(provider, modelId);
  if (!model) {
    const catalogError = modelRegistry.getError();
    throw new Error(
      `unknown model "${options.model}": add it to ${path.join(options.agentDir, 'models.json')}` +
        (catalogError ? ` (models.json could not be read: ${catalogError})` : ''),
    );
  }
  mkdirSync(options.sessionDir, { recursive: true });
  const settingsManager = sdk.SettingsManager.create(options.cwd, options.agentDir);
  // What createAgentSession builds when given no loader, plus the daemon's inline extensions.
  const resourceLoader = new sdk.DefaultResourceLoader({
    cwd: options.cwd,
    agentDir: options.agentDir,
    settingsManager,
    extensionFactories: options.extensionFactories ?? [],
  });
  await resourceLoader.reload();
  const { session, extensionsResult } = await sdk.createAgentSession({
    cwd: options.cwd,
    agentDir: options.agentDir,
    authStorage,
    modelRegistry,
    model,
    tools,
    sessionManager: sessionManagerFor(sdk, options),
    settingsManager,
    resourceLoader,
  });
  return { session, extensionErrors: extensionsResult.errors };
}

function sessionManagerFor(sdk: PiSdk, options: PiSessionOptions) {
  const { resumeSessionId, sessionDir, cwd } = options;
  const existing = resumeSessionId === undefined ? undefined : findSessionFile(sessionDir, resumeSessionId);
  if (existing) return sdk.SessionManager.open(existing, sessionDir, cwd);
  const manager = sdk.SessionManager.create(cwd, sessionDir);
  // Keeps the thread's providerThreadId stable even if the first run never reached an answer (no file yet).
  if (resumeSessionId !== undefined) manager.newSession({ id: resumeSessionId });
  return manager;
}
