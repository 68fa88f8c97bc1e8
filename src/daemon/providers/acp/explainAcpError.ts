import { DECLARED_ACP_AGENTS_ENV, type AcpAgentSpec } from './acpAgentSpecs';

/**
 * Errors that say what to do on this host (install the adapter, which variable to set), never the agent's own
 * login instructions verbatim: the user of a thread is not at the daemon's terminal.
 */
export function missingAgentError(name: string, spec: AcpAgentSpec): Error {
  const install = spec.install ? `install it: ${spec.install}` : `install it, or fix its command in ${DECLARED_ACP_AGENTS_ENV}`;
  return new Error(`the ${name} agent (${spec.command}) is not on PATH or in node_modules/.bin; ${install}`);
}

const AUTH_HINT = /auth|login|log in|api key|apikey|unauthori[sz]ed|401|credential/i;

export function explainAcpStartFailure(name: string, spec: AcpAgentSpec, error: unknown, stderr: string): Error {
  const message =
    error instanceof Error ? error.message : typeof error === 'object' && error !== null ? JSON.stringify(error) : String(error);
  const lastLine = stderr.split('\n').filter(Boolean).at(-1);
  const detail = lastLine && !message.includes(lastLine) ? `${message} (agent: ${lastLine.slice(0, 300)})` : message;
  const needsSetup = AUTH_HINT.test(message) || AUTH_HINT.test(stderr);
  const hint = needsSetup && spec.setup ? `; it needs ${spec.setup}` : '';
  return new Error(`the ${name} agent could not start a session: ${detail}${hint}`);
}

/** An ACP error's details where the agent gives them (Gemini CLI: `data.details`), else its message. */
export function acpErrorReason(error: unknown): string {
  const details = (error as { data?: { details?: unknown } } | undefined)?.data?.details;
  return typeof details === 'string' ? details : error instanceof Error ? error.message : String(error);
}
