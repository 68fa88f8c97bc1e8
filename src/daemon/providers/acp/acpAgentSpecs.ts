import { z } from 'zod';
import type { PermissionMode } from '../../../protocol/approvals';
import { removeCodexArchivedRollouts } from './codexArchivedRollouts';
import { removeGeminiSessionFiles } from './geminiSessionFiles';
import { waitOutGeminiSessionMinute } from './geminiSessionMinute';

/**
 * How to start an ACP agent: a command speaking ACP on stdio. Three are built in; the host's owner declares
 * any other (`ATS_ACP_AGENTS='{"opencode":{"command":"opencode","args":["acp"]}}'`, docs/agents.md).
 */
export const AcpAgentSpecSchema = z.strictObject({
  /** A name found on PATH (or in node_modules/.bin), or an absolute path. */
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Added to the daemon's environment for this agent only (e.g. a base URL). */
  env: z.record(z.string(), z.string()).default({}),
});
export type AcpAgentSpec = z.infer<typeof AcpAgentSpecSchema> & {
  /** What a user runs to get the agent, said in the error when it is missing. */
  install?: string;
  /** What the agent needs to log in or find its model, said when it fails to start. */
  setup?: string;
  /** Removes what the agent leaves of a session it was asked to delete (in its home, found through `env`). */
  afterDelete?: (sessionId: string, env: NodeJS.ProcessEnv) => Promise<void>;
  /**
   * For an agent that offers no `session/delete`: removes the session's files from the agent's home itself, once
   * the agent is closed, and resolves with how many it removed. A delete then starts no agent and asks none.
   */
  removeSessionFiles?: (sessionId: string, env: NodeJS.ProcessEnv) => Promise<number>;
  /**
   * `_meta` of the session's `session/new|load|resume`, given the thread's mode at the start: Claude's adapter is
   * told not to allow bypass for a thread that is not `full-access` (claudeSessionMeta).
   */
  sessionMeta?: (mode: PermissionMode) => Record<string, unknown> | undefined;
  /** Runs before the agent is asked to load a session (`session/load`), to work around what the agent gets wrong. */
  beforeLoad?: (sessionId: string, env: NodeJS.ProcessEnv, log: (message: string) => void) => Promise<void>;
  /**
   * `_meta` of a `session/fork` that forks at one of the agent's messages (the `messageId` of its chunks) instead
   * of at the session's end. ACP names no fork point; without this a session is forked only whole (docs/fork.md).
   */
  forkPointMeta?: (messageId: string) => Record<string, unknown>;
};

/**
 * The fork point claude-agent-acp and codex-acp read from a `session/fork`'s `_meta` (JetBrains AIR's extension):
 * the fork holds the conversation up to that message of the agent (Claude: the transcript through it; Codex: the
 * turns through the one that has it). An agent that does not read it would fork the whole session, so it is
 * sent only to the agents declared to read it.
 */
export function airForkPointMeta(messageId: string): Record<string, unknown> {
  return { jetbrains: { air: { fork: { version: 1, messageId } } } };
}

/**
 * claude-agent-acp allows bypass (`allowDangerouslySkipPermissions`) for a non-root user, or for root when
 * `IS_SANDBOX` is set to anything; Claude Code reads `IS_SANDBOX` otherwise, and as root refuses the flag, so in a
 * root container that sets `IS_SANDBOX=0` every session failed. A thread that is not `full-access` never needs
 * bypass: its session opts out (the adapter's `_meta.claudeCode.options`), whatever the environment says.
 */
export function claudeSessionMeta(mode: PermissionMode): Record<string, unknown> | undefined {
  return mode === 'full-access' ? undefined : { claudeCode: { options: { allowDangerouslySkipPermissions: false } } };
}

/** Agent names are thread `provider` values and prefixes of their frames' methods: a plain word. */
export const AcpAgentNameSchema = z.string().regex(/^[a-z][a-z0-9_-]*$/, 'a lowercase name (letters, digits, - and _)');

export const BUILT_IN_ACP_AGENTS = {
  claude: {
    command: 'claude-agent-acp',
    args: [],
    env: {},
    install: 'npm i -g @agentclientprotocol/claude-agent-acp (or npm run agents:install for the pinned test copy)',
    setup: 'ANTHROPIC_API_KEY in the daemon environment, or a Claude Code login of the user the daemon runs as',
    sessionMeta: claudeSessionMeta,
    forkPointMeta: airForkPointMeta,
  },
  codex: {
    command: 'codex-acp',
    args: [],
    env: {},
    install: 'npm i -g @agentclientprotocol/codex-acp (or npm run agents:install for the pinned test copy)',
    setup: 'OPENAI_API_KEY in the daemon environment, or a Codex login (codex login) of the user the daemon runs as',
    afterDelete: removeCodexArchivedRollouts,
    forkPointMeta: airForkPointMeta,
  },
  gemini: {
    command: 'gemini',
    args: ['--acp'],
    // Gemini CLI otherwise starts a second Node process of itself with a larger heap: 381–390 MB against 226 MB
    // for the agent's tree, and seconds more to start (docs/agents.md).
    env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
    install: 'npm i -g @google/gemini-cli',
    setup: 'GEMINI_API_KEY in the daemon environment, or a Gemini CLI login of the user the daemon runs as',
    // Gemini CLI 0.61 advertises no `session/delete`; its session files are where removeGeminiSessionFiles says.
    removeSessionFiles: removeGeminiSessionFiles,
    beforeLoad: waitOutGeminiSessionMinute,
  },
} as const satisfies Record<string, AcpAgentSpec>;

export type BuiltInAcpAgent = keyof typeof BUILT_IN_ACP_AGENTS;

/** `ATS_ACP_AGENTS`: a JSON object of name → spec; a name of a built-in agent replaces it. */
export const DeclaredAcpAgentsSchema = z
  .string()
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'not JSON: expected {"name":{"command":"…","args":["…"]}}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(AcpAgentNameSchema, AcpAgentSpecSchema));
export type DeclaredAcpAgents = z.infer<typeof DeclaredAcpAgentsSchema>;

export const DECLARED_ACP_AGENTS_ENV = 'ATS_ACP_AGENTS';

/** The agents declared in the environment (none when unset); throws naming the variable when it is malformed. */
export function declaredAcpAgents(env: NodeJS.ProcessEnv): DeclaredAcpAgents {
  const text = env[DECLARED_ACP_AGENTS_ENV];
  if (text === undefined || text.trim() === '') return {};
  const parsed = DeclaredAcpAgentsSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`${DECLARED_ACP_AGENTS_ENV} is invalid at ${issue.path.join('.') || '(top)'}: ${issue.message}`);
}
