import path from 'node:path';
import type { ApprovalOption, ApprovalQuestion, PermissionMode } from '../../protocol/approvals';

/** What the thread's mode says about a question before anyone is asked. */
export type PolicyVerdict =
  | { kind: 'allow'; option: ApprovalOption; reason: string }
  /** The mode would allow it, but the agent offered nothing to allow it with. */
  | { kind: 'refuse'; reason: string }
  | { kind: 'ask' };

/** Tool kinds (ACP `ToolKind`) that change files: the ones `accept-edits` lets through inside the folder. */
const EDIT_KINDS: ReadonlySet<string> = new Set(['edit', 'delete', 'move']);

/**
 * The permission modes of src/protocol/approvals.ts as a rule: `full-access` allows everything, `accept-edits`
 * allows edits whose every path lies inside the thread's folder (`cwd`), anything else waits for the user.
 * An allowed question takes the agent's allow-once option, or its allow-always one when it offers no other:
 * the kind decides, never the id, because agents name their options differently.
 */
export function policyVerdict(mode: PermissionMode, question: ApprovalQuestion, cwd: string): PolicyVerdict {
  const reason = allowedBecause(mode, question, cwd);
  if (!reason) return { kind: 'ask' };
  const option = question.options.find((o) => o.kind === 'allow_once') ?? question.options.find((o) => o.kind === 'allow_always');
  if (!option) return { kind: 'refuse', reason: `${reason}, but the agent offered no option that allows it` };
  return { kind: 'allow', option, reason };
}

function allowedBecause(mode: PermissionMode, { subject }: ApprovalQuestion, cwd: string): string | undefined {
  if (mode === 'full-access') return 'full-access allows every tool call';
  if (mode === 'accept-edits' && EDIT_KINDS.has(subject.kind) && subject.paths.length > 0 && subject.paths.every((p) => isInside(cwd, p)))
    return `accept-edits allows ${subject.kind} inside the thread's folder`;
  return undefined;
}

/**
 * Strictly below the folder (the folder itself, e.g. deleting it, asks). Lexical: `..` segments are resolved,
 * symlinks are not followed (the agent edits the path it names; a link out of the folder is its owner's).
 */
function isInside(folder: string, target: string): boolean {
  const relative = path.relative(path.resolve(folder), path.resolve(folder, target));
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
