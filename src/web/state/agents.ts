import type { ModelChoice, PermissionMode } from '../api/types';

/** The agents' names as people know them; an agent the host's owner declared shows by its own name. */
const AGENT_NAMES: Record<string, string> = { pi: 'pi', claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI' };

export function agentName(provider: string): string {
  return AGENT_NAMES[provider] ?? provider;
}

/** The permission modes (src/protocol/approvals.ts) in the order a picker offers them, with what each does. */
export const PERMISSION_MODES: ReadonlyArray<{ value: PermissionMode; label: string }> = [
  { value: 'ask', label: 'Ask: every action waits for you' },
  { value: 'accept-edits', label: 'Accept edits: edits in the folder run, the rest asks' },
  { value: 'full-access', label: 'Full access: everything runs without asking' },
];

export const DEFAULT_MODE: PermissionMode = 'accept-edits';

/** A host's catalog grouped by agent, in catalog order (agents with a usable model first, as the catalog is). */
export function agentsOf(choices: ModelChoice[]): Array<{ provider: string; models: ModelChoice[] }> {
  const groups = new Map<string, ModelChoice[]>();
  for (const choice of choices) groups.set(choice.provider, [...(groups.get(choice.provider) ?? []), choice]);
  return [...groups].map(([provider, models]) => ({ provider, models }));
}
