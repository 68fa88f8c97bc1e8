/** The prefix of a worktree thread's default branch when its project sets none (`branchPrefix`). */
export const DEFAULT_BRANCH_PREFIX = 'ats';

/** A title's slug is cut to this many characters, so a branch name stays readable in `git branch`. */
export const MAX_SLUG_LENGTH = 40;

/**
 * The slug of a title: lower case, only `[a-z0-9-]`, no leading or trailing dash. Nothing of a title reaches
 * git but these characters, so a title can never read as an option (`--…` is cut to its words) or a path.
 */
export function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // the accents NFKD split off: "é" reads as "e", not "e-"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug;
}

/** `<prefix>/<short thread id>-<slug of the title>` (the slug left out when the title has none). */
export function defaultBranchOf(threadId: string, title: string, prefix = DEFAULT_BRANCH_PREFIX): string {
  const shortId = threadId.replace(/^thr_/, '').slice(0, 8);
  const slug = slugOf(title);
  return `${prefix}/${slug ? `${shortId}-${slug}` : shortId}`;
}
