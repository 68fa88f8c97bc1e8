/**
 * pi has no approval prompts: with its default tools (`read`, `bash`, `edit`, `write`) it edits files and runs
 * commands on its own, which is what `accept-edits` asks for. Any other mode would need a gate pi 0.73 does not
 * have, so it is refused rather than silently given more rights than asked for.
 */
export const SUPPORTED_PERMISSION_MODES = ['accept-edits'] as const;

/** The tools pi enables by default; none of them downloads a binary (unlike `grep`/`find`, see offlineSafety). */
export const PI_DEFAULT_TOOLS = ['read', 'bash', 'edit', 'write'] as const;

export function toolsForPermissionMode(mode: string | undefined): string[] {
  if (mode === undefined || mode === 'accept-edits') return [...PI_DEFAULT_TOOLS];
  throw new Error(`permission mode "${mode}" is not supported by the pi provider (supported: ${SUPPORTED_PERMISSION_MODES.join(', ')})`);
}
