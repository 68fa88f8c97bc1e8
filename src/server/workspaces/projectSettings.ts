import { z } from 'zod';
import { WorkspaceKindSchema } from '../../protocol/hostGitCommands';
import type { ProjectRecord } from '../../registry/records';

/** A setup script longer than this is refused (400 `invalid_body`): it is a command line, not a program. */
export const MAX_SETUP_SCRIPT_CHARS = 64 * 1024;

/**
 * `PATCH /projects/:id` (issue 38): each field optional, absent ones stay; `null` clears the setup script. A
 * branch prefix is a ref name part git accepts and never an option: letters, digits, `.`, `_`, `-` and `/`,
 * starting with a letter or digit (git itself checks the whole branch name on the host).
 */
export const ProjectPatchSchema = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  defaultWorkspace: WorkspaceKindSchema.optional(),
  branchPrefix: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'letters, digits, ".", "_", "-" and "/", starting with a letter or a digit')
    .optional(),
  setupScript: z.string().min(1).max(MAX_SETUP_SCRIPT_CHARS).nullable().optional(),
});
export type ProjectPatch = z.infer<typeof ProjectPatchSchema>;

export function patchedProject(project: ProjectRecord, patch: ProjectPatch): ProjectRecord {
  const { setupScript, ...fields } = patch;
  const { setupScript: previous, ...rest } = project;
  const script = setupScript === undefined ? previous : (setupScript ?? undefined);
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return { ...rest, ...defined, ...(script === undefined ? {} : { setupScript: script }) };
}
