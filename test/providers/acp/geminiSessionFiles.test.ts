import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { removeGeminiSessionFiles } from '../../../src/daemon/providers/acp/geminiSessionFiles';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const ID = '3eab1a6e-6505-448c-b476-21935e1b9290';
/** Another session whose id starts with the same 8 characters: its chat file's name ends alike. */
const LOOK_ALIKE = '3eab1a6e-0000-4000-8000-000000000000';
const OTHER = '77aa0000-1111-4222-8333-444444444444';

/** Writes `files` (path relative to `root` → content) and their folders. */
async function plant(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

/** Every file (not folder) under `root`, relative to it, sorted. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

const record = (sessionId: string) => `${JSON.stringify({ sessionId, kind: 'main' })}\n{"type":"user"}\n`;

describe("Gemini CLI's session files: a deleted thread's session is removed, no other (issue 28)", () => {
  const tempDir = suiteTempDirs();

  it("removes the session's chat file and what goes with it in every project folder; look-alikes and others stay", async () => {
    const home = await tempDir('ats-gemini-files-');
    await plant(home, {
      // The session ran in two folders (a thread's folder renamed, or Gemini's project name changed).
      [`.gemini/tmp/project/chats/session-2026-11-27T14-37-${ID.slice(0, 8)}.jsonl`]: record(ID),
      [`.gemini/tmp/project/chats/${ID}/subagent-1.jsonl`]: record('subagent-1'),
      [`.gemini/tmp/project/logs/session-${ID}.jsonl`]: '{}\n',
      [`.gemini/tmp/project/tool-outputs/session-${ID}/out.txt`]: 'output',
      [`.gemini/tmp/project/${ID}/plan.md`]: 'plan',
      // An older Gemini's whole-file JSON, pretty-printed: the id is not on the first line.
      [`.gemini/tmp/project-1/chats/session-2025-01-01T00-00-${ID.slice(0, 8)}.json`]: JSON.stringify(
        { sessionId: ID, messages: [] },
        null,
        2,
      ),
      [`.gemini/tmp/project/chats/session-2026-11-27T14-38-${ID.slice(0, 8)}.jsonl`]: record(LOOK_ALIKE),
      [`.gemini/tmp/project/logs/session-${LOOK_ALIKE}.jsonl`]: '{}\n',
      [`.gemini/tmp/project/chats/session-2026-11-27T14-39-${OTHER.slice(0, 8)}.jsonl`]: record(OTHER),
      '.gemini/projects.json': '{}',
    });

    expect(await removeGeminiSessionFiles(ID, { HOME: home })).to.equal(2);

    expect(await filesUnder(home)).to.deep.equal(
      [
        '.gemini/projects.json',
        `.gemini/tmp/project/chats/session-2026-11-27T14-38-${ID.slice(0, 8)}.jsonl`,
        `.gemini/tmp/project/chats/session-2026-11-27T14-39-${OTHER.slice(0, 8)}.jsonl`,
        `.gemini/tmp/project/logs/session-${LOOK_ALIKE}.jsonl`,
      ].sort(),
    );
  });

  it('looks in GEMINI_CLI_HOME over HOME, and finds nothing for an id that is not a plain name', async () => {
    const home = await tempDir('ats-gemini-home-');
    const geminiHome = await tempDir('ats-gemini-cli-home-');
    const chat = `.gemini/tmp/p/chats/session-2026-11-27T14-37-${ID.slice(0, 8)}.jsonl`;
    await plant(home, { [chat]: record(ID) });
    await plant(geminiHome, { [chat]: record(ID) });

    expect(await removeGeminiSessionFiles('../..', { HOME: home, GEMINI_CLI_HOME: geminiHome })).to.equal(0);
    expect(await removeGeminiSessionFiles(ID, { HOME: home, GEMINI_CLI_HOME: geminiHome })).to.equal(1);
    expect(await readdir(path.join(geminiHome, '.gemini/tmp/p/chats'))).to.deep.equal([]);
    expect(await readdir(path.join(home, '.gemini/tmp/p/chats'))).to.have.length(1);
  });

  it('resolves with 0 when Gemini never ran (no .gemini folder)', async () => {
    expect(await removeGeminiSessionFiles(ID, { HOME: await tempDir('ats-gemini-none-') })).to.equal(0);
  });
});
