import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { DiffFile, GitDiffResult } from '../../protocol/hostGitCommands';

/** Runs the host's diff, handing each part of files to `onFiles` as it arrives (none when the host answers whole). */
export type DiffInParts = (onFiles: (files: DiffFile[]) => void) => Promise<GitDiffResult>;

/**
 * Answers a diff while the host still writes it (bench:review: the transfer of a 4 MB answer overlaps git's
 * own run instead of following it). The JSON is the same answer, with `files` first: `{"files":[` and each
 * part's files as they come, then the result's own files and its other fields.
 *
 * Nothing is sent until the first part or the answer: a refusal before then (unknown turn, host offline) is
 * the usual problem. A failure after the first part cannot change a status already sent; the connection is
 * cut instead, so a client sees a broken body, never a diff that silently lacks files.
 */
export async function answerDiffInParts(ctx: Context, diff: DiffInParts): Promise<void> {
  let body: PassThrough | undefined;
  let firstPart!: () => void;
  const started = new Promise<void>((resolve) => (firstPart = resolve));
  const answer = diff((files) => {
    const text = JSON.stringify(files).slice(1, -1);
    if (body) return void body.write(`,${text}`);
    body = new PassThrough();
    body.write(`{"files":[${text}`);
    firstPart();
  });
  await Promise.race([started, answer]);
  if (!body) {
    ctx.body = await answer;
    return;
  }
  const stream = body;
  ctx.type = 'application/json';
  ctx.body = stream;
  answer.then(
    ({ files, ...rest }) =>
      stream.end(`${files.length > 0 ? `,${JSON.stringify(files).slice(1, -1)}` : ''}],${JSON.stringify(rest).slice(1)}`),
    () => {
      stream.destroy();
      ctx.res.destroy();
    },
  );
}
