import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { createIsolatedPiProvider as CreateIsolatedPiProvider } from '../../src/daemon/providerFactories';
import type { PiSandbox } from '../../test/providers/pi/piSandbox';
import { FAKE_MODEL } from '../../test/providers/pi/piSandbox';

/** Where a first prompt on a stopped pi agent spends its time, each phase measured on its own (medians). */
export interface FirstPromptPhases {
  /** `node -e 0`, spawned until it exits: what any process start costs on this machine now. */
  nodeStartMs: number;
  /** A fresh process importing `@mariozechner/pi-coding-agent` from node_modules, the import alone. */
  sdkImportMs: number;
  /** The agent process the service forks (the bundle when built), from the fork to its thread open. */
  openMs: number;
  /** The same with the unbundled entry (`agentProcessMain`, the SDK from node_modules): the baseline. */
  plainOpenMs: number;
  /** From the prompt command to the agent's first frame (`pi/prompt/started`, the run's first row). */
  firstFrameMs: number;
}

const REPO = path.resolve(__dirname, '..', '..');
// The compiled daemon, as the service runs it: its factory ref names compiled JavaScript, which an agent process
// started without ts-node can load (the plain entry requires it).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createIsolatedPiProvider } = require(path.join(REPO, 'dist/node/src/daemon/providerFactories.js')) as {
  createIsolatedPiProvider: typeof CreateIsolatedPiProvider;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Opens a pi thread in its own agent process from `entry` and prompts it: the open and the first frame. */
async function openAndPrompt(sandbox: PiSandbox, entry: string, round: number): Promise<{ openMs: number; firstFrameMs: number }> {
  const provider = createIsolatedPiProvider({ agentDir: sandbox.agentDir }, () => undefined, entry);
  let firstFrameAt: number | undefined;
  let sawFirst: () => void = () => undefined;
  const firstFrame = new Promise<void>((resolve) => (sawFirst = resolve));
  const openedAt = performance.now();
  const thread = await provider.openThread({
    threadId: `thr_phase_${round}`,
    cwd: sandbox.projectDir,
    model: FAKE_MODEL,
    dataDir: path.join(sandbox.dataDir, `phases-${round}`),
    emit: () => {
      firstFrameAt ??= performance.now();
      sawFirst();
    },
  });
  const promptedAt = performance.now();
  await thread.prompt('Say hello');
  await firstFrame;
  const result = { openMs: promptedAt - openedAt, firstFrameMs: firstFrameAt! - promptedAt };
  await thread.dispose();
  return result;
}

/**
 * Measures the phases in this process, against the same sandbox and model server as the service: the
 * difference between the service's figure and `openMs + firstFrameMs` is the service's own share (the HTTP
 * request, the host command, the row's way into the store and back out to the reader).
 */
export async function measureFirstPromptPhases(sandbox: PiSandbox, agentEntry: string | undefined, rounds = 3): Promise<FirstPromptPhases> {
  const plainEntry = path.join(REPO, 'dist/node/src/daemon/providers/isolated/agentProcessMain.js');
  const sdk = pathToFileURL(path.join(REPO, 'node_modules/@mariozechner/pi-coding-agent/dist/index.js')).href;
  const starts: number[] = [];
  const imports: number[] = [];
  const opens: number[] = [];
  const plainOpens: number[] = [];
  const firstFrames: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const startedAt = performance.now();
    execFileSync(process.execPath, ['-e', '0']);
    starts.push(performance.now() - startedAt);
    const script = `const t = performance.now(); await import(${JSON.stringify(sdk)}); console.log(performance.now() - t);`;
    imports.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script]).toString()));
    // Alternated, so a moment of load falls on both sides.
    const bundled = await openAndPrompt(sandbox, agentEntry ?? plainEntry, round * 2);
    opens.push(bundled.openMs);
    firstFrames.push(bundled.firstFrameMs);
    plainOpens.push((await openAndPrompt(sandbox, plainEntry, round * 2 + 1)).openMs);
  }
  return {
    nodeStartMs: median(starts),
    sdkImportMs: median(imports),
    openMs: median(opens),
    plainOpenMs: median(plainOpens),
    firstFrameMs: median(firstFrames),
  };
}
