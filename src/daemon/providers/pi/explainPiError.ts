import os from 'node:os';
import path from 'node:path';

export interface PiErrorContext {
  /** pi's agent directory on this host (where `auth.json` and `models.json` live). */
  agentDir: string;
  /** The model's provider, e.g. `anthropic` for `anthropic/claude-sonnet-4-5`. */
  provider: string;
}

/**
 * pi writes its errors for its own terminal UI: "Use /login …" and absolute paths of its docs inside the
 * server's `node_modules`. An API user can do neither, so each error is said in this service's terms: which
 * environment variable or file on the host takes the key. (Issue 12: no installation paths in an error.)
 */
export function explainPiError(error: unknown, context: PiErrorContext): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/^No API key/.test(message)) return new Error(noApiKeyMessage(context));
  const kept = message.split('\n').filter((line) => !/\/login|\/model\b|node_modules/.test(line) && !/^\s*\/\S+$/.test(line));
  return new Error(
    kept
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim() || 'the pi agent failed',
  );
}

/** The variables pi reads for the providers people use most (pi-ai's `env-api-keys`, not exported by pi). */
const API_KEY_VARIABLES: Record<string, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  google: 'GEMINI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
  deepseek: 'DEEPSEEK_API_KEY',
  groq: 'GROQ_API_KEY',
  mistral: 'MISTRAL_API_KEY',
  xai: 'XAI_API_KEY',
};

function noApiKeyMessage({ agentDir, provider }: PiErrorContext): string {
  const variable = API_KEY_VARIABLES[provider];
  const dir = homeRelative(agentDir);
  return (
    `No API key for the "${provider}" models on this host. ` +
    (variable ? `Set ${variable} in the environment of the host daemon (npm start or npm run daemon), or add ` : 'Add ') +
    `{"${provider}": {"type": "api_key", "key": "…"}} to ${dir}/auth.json on that host ` +
    `(pi's agent dir; PI_CODING_AGENT_DIR moves it), then send the prompt again. ` +
    `No key? Add a local OpenAI-compatible model (Ollama, llama.cpp, LM Studio) to ${dir}/models.json (README "First run") and pick it.`
  );
}

function homeRelative(folder: string): string {
  const home = os.homedir();
  return folder === home || folder.startsWith(home + path.sep) ? `~${folder.slice(home.length)}` : folder;
}
