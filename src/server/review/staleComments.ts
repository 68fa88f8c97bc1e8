import type { DiffScope, GitDiffResult } from '../../protocol/hostGitCommands';
import type { ReviewCommentRecord, ThreadRecord } from '../../registry/records';
import { readyFolderOf, workspaceOfThread } from '../workspaces/workspaceOfThread';
import { fileOfDiff, lineOfDiff } from './diffLine';
import { reviewCommentOf } from './reviewComments';
import type { ReviewComment } from './reviewCommentSchemas';
import { threadDiff, type ReviewDeps } from './threadDiff';

/**
 * `GET /threads/:id/review-comments`: every comment, oldest first, a draft marked `stale` when its line no
 * longer reads as its snippet: a new-side line against the file as it is now, an old-side line against the
 * diff of its scope now (a line gone from it is stale too). One read per file and one diff per scope; when
 * the thread's folder cannot be read (its host away, its worktree archived) the drafts stay `draft`.
 */
export async function listReviewComments(deps: ReviewDeps, thread: ThreadRecord): Promise<ReviewComment[]> {
  const records = await deps.registry.reviewComments.find({ threadId: thread.id });
  const drafts = records.filter((record) => record.state === 'draft');
  if (drafts.length === 0) return records.map((record) => reviewCommentOf(record));
  const lineNow = await currentLines(deps, thread).catch(() => undefined);
  if (!lineNow) return records.map((record) => reviewCommentOf(record));
  const states = await Promise.all(
    records.map(async (record) => {
      if (record.state !== 'draft') return record.state;
      const now = await lineNow(record).catch(() => record.snippet);
      return now === record.snippet ? 'draft' : 'stale';
    }),
  );
  return records.map((record, index) => reviewCommentOf(record, states[index]));
}

/** How a comment's line reads now (undefined: gone), reading each file and each scope's diff once. */
async function currentLines(deps: ReviewDeps, thread: ThreadRecord): Promise<(record: ReviewCommentRecord) => Promise<string | undefined>> {
  const folder = readyFolderOf(thread, await workspaceOfThread(deps.registry, thread));
  const files = new Map<string, Promise<string[] | undefined>>();
  const diffs = new Map<DiffScope, Promise<GitDiffResult>>();
  const linesOf = (path: string) => {
    let lines = files.get(path);
    if (!lines) {
      lines = deps.hosts
        .call(thread.hostId, 'host.read_file_relative', { rootPath: folder, path, dotfiles: 'allow' })
        .then((file) => (file.encoding === 'utf8' ? file.content.split('\n') : undefined))
        .catch(() => undefined); // a file deleted since: every line of it is gone
      files.set(path, lines);
    }
    return lines;
  };
  const diffOf = (scope: DiffScope) => {
    let diff = diffs.get(scope);
    if (!diff) diffs.set(scope, (diff = threadDiff(deps, thread, scope)));
    return diff;
  };
  return async (record) => {
    if (record.side === 'new') return (await linesOf(record.path))?.[record.line - 1]?.replace(/\r$/, '');
    const file = fileOfDiff(await diffOf(record.scope), record.path, 'old');
    return file && lineOfDiff(file, record.line, 'old');
  };
}
