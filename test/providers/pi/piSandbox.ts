import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The model every sandbox configures: a custom provider in pi's `models.json` pointing at the fake server. */
export const FAKE_MODEL = 'fake/fake-model';
export const FAKE_CONTEXT_WINDOW = 32_000;

/**
 * A project extension that starts a run by itself (the spec's agent-started turn, E3): it polls for
 * `<project>/.pi/trigger.txt` and sends its content as a custom message with *string* content.
 */
export const TRIGGER_EXTENSION = `
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export default function (pi) {
  let timer;
  pi.on('session_start', async (_event, ctx) => {
    const trigger = join(ctx.cwd, '.pi', 'trigger.txt');
    timer = setInterval(() => {
      if (!existsSync(trigger)) return;
      const content = readFileSync(trigger, 'utf8').trim();
      rmSync(trigger, { force: true });
      pi.sendMessage({ customType: 'file-trigger', content, display: true }, { triggerTurn: true });
    }, 20);
    timer.unref?.();
  });
  pi.on('session_shutdown', async () => clearInterval(timer));
}
`;

/**
 * A project extension that starts a run as soon as pi starts it (`session_start`), with no prompt and no
 * trigger from outside: it runs whenever the daemon opens the thread's session, at creation and after restarts.
 */
export const SESSION_START_EXTENSION = `
export default function (pi) {
  pi.on('session_start', async () => {
    pi.sendMessage({ customType: 'session-start', content: 'Session started: check the build.', display: true }, { triggerTurn: true });
  });
}
`;

/**
 * A project extension that fails in every way an event handler can: it throws, it rejects, and it leaves a
 * rejected promise nobody handles (which reaches the process as an unhandledRejection).
 */
export const FAILING_EXTENSION = `
export default function (pi) {
  pi.on('agent_start', () => {
    throw new Error('extension threw in agent_start');
  });
  pi.on('message_end', async () => {
    throw new Error('extension rejected in message_end');
  });
  pi.on('turn_end', () => {
    Promise.reject(new Error('extension left a rejection unhandled in turn_end'));
  });
}
`;

/**
 * Throws from its own timer (not from an event handler pi would catch) once a user message says "Crash":
 * nothing can catch that, so it ends the process the agent runs in.
 */
export const TIMER_THROW_EXTENSION = `
export default function (pi) {
  pi.on('message_end', (event) => {
    const message = event.message;
    const text = typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => part.text ?? '').join('');
    if (message.role === 'user' && text.includes('Crash')) {
      setTimeout(() => { throw new Error('extension timer exploded'); }, 30);
    }
  });
}
`;

/** A project extension whose `agent_end` handler is slow: pi's `prompt()` then resolves before `agent_end`. */
export const SLOW_AGENT_END_EXTENSION = `
export default function (pi) {
  pi.on('agent_end', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
}
`;

export interface PiSandboxOptions {
  baseUrl: string;
  /** File name → source, written to the project's `.pi/extensions/`. */
  extensions?: Record<string, string>;
  /** pi `settings.json` for the agent dir. Default: retries off, so an error ends the run at once. */
  settings?: Record<string, unknown>;
}

export interface PiSandbox {
  agentDir: string;
  projectDir: string;
  /** The daemon's provider data dir, where pi session files go. */
  dataDir: string;
  /** Makes the trigger extension start a run with `content`; the file appears whole, never empty. */
  triggerAgentRun(content: string): void;
  remove(): void;
}

export const NO_RETRY_SETTINGS = { retry: { enabled: false, provider: { maxRetries: 0 } } };

export function createPiSandbox(options: PiSandboxOptions): PiSandbox {
  const root = mkdtempSync(path.join(tmpdir(), 'pi-sandbox-'));
  const agentDir = path.join(root, 'agent');
  const projectDir = path.join(root, 'project');
  const dataDir = path.join(root, 'data');
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(path.join(projectDir, '.pi', 'extensions'), { recursive: true });
  writeFileSync(path.join(projectDir, 'notes.txt'), 'first line\nsecond line\n');
  writeFileSync(
    path.join(agentDir, 'models.json'),
    JSON.stringify({
      providers: {
        fake: {
          baseUrl: options.baseUrl,
          api: 'openai-completions',
          apiKey: 'dummy-key',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: 'fake-model', name: 'Fake model', contextWindow: FAKE_CONTEXT_WINDOW, maxTokens: 4096 }],
        },
      },
    }),
  );
  writeFileSync(path.join(agentDir, 'settings.json'), JSON.stringify(options.settings ?? NO_RETRY_SETTINGS));
  for (const [name, source] of Object.entries(options.extensions ?? {})) {
    writeFileSync(path.join(projectDir, '.pi', 'extensions', name), source);
  }
  return {
    agentDir,
    projectDir,
    dataDir,
    triggerAgentRun: (content) => {
      // Written beside it, then renamed: the extension polls every 20 ms, and a poll between writeFileSync's
      // create and its write read an empty trigger (a run started with an empty message, seen in CI).
      const trigger = path.join(projectDir, '.pi', 'trigger.txt');
      writeFileSync(`${trigger}.tmp`, content);
      renameSync(`${trigger}.tmp`, trigger);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
