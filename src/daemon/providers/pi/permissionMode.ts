import { PermissionModeSchema, type PermissionMode } from '../../../protocol/approvals';

/** The tools pi enables by default; none of them downloads a binary (unlike `grep`/`find`, see offlineSafety). */
export const PI_DEFAULT_TOOLS = ['read', 'bash', 'edit', 'write'] as const;

/** pi's tools that only look: in `ask` they run without a question, as reading is what every mode allows. */
export const PI_READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['read', 'ls', 'grep', 'find']);

/**
 * Every mode runs pi with its default tools; the modes differ in what pi asks before a tool runs (`asksFirst`).
 * A mode the service does not know is refused rather than silently given more rights than asked for.
 */
export function toolsForPermissionMode(mode: string | undefined): string[] {
  if (mode === undefined || PermissionModeSchema.safeParse(mode).success) return [...PI_DEFAULT_TOOLS];
  throw new Error(`permission mode "${mode}" is not supported by the pi provider (supported: ${PermissionModeSchema.options.join(', ')})`);
}

/**
 * Whether pi asks the user before running `toolName`. Only `ask` asks (everything but reading). pi has no notion
 * of a risky command, so `accept-edits` cannot tell a build from `rm -rf`: it keeps pi's own behaviour, every
 * tool runs without a question, exactly as pi threads always ran (issue 27 keeps every answer they gave).
 * `full-access` asks nothing either; whether the host allows it at all is the daemon's decision.
 */
export function asksFirst(mode: PermissionMode, toolName: string): boolean {
  return mode === 'ask' && !PI_READ_ONLY_TOOLS.has(toolName);
}
