import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { ClientConnection, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { endProcessGroup } from './endProcessGroup';
import type { AcpSdk } from './loadAcpSdk';
import { tapAcpStream, type AcpWireObserver } from './tapAcpStream';

export interface AcpAgentProcess {
  readonly connection: ClientConnection;
  readonly pid: number | undefined;
  /** Resolves with how the process ended (`code 1`, `signal SIGKILL`, or the spawn error). */
  readonly exited: Promise<string>;
  /**
   * Aborts when the process exited, is being closed, or its connection died (a line beyond the SDK's message
   * limit, output that broke the stream): its open questions no longer matter, and it takes no more prompts.
   */
  readonly gone: AbortSignal;
  /** The end of what the agent wrote to stderr, for an error message. */
  stderrTail(): string;
  /**
   * Closes stdin (ACP agents exit on it), kills the agent after `graceMs`, then ends what is left of its process
   * group; resolves once none of it is left.
   */
  close(graceMs?: number): Promise<void>;
}

export interface SpawnAcpAgentOptions extends AcpWireObserver {
  sdk: AcpSdk;
  executable: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  requestPermission(params: RequestPermissionRequest, gone: AbortSignal): Promise<RequestPermissionResponse>;
}

const STDERR_TAIL_CHARS = 4000;
/** How long the agent's children get to end after a SIGTERM to its group, before SIGKILL. */
const GROUP_GRACE_MS = 2_000;

/**
 * One ACP agent process on stdio, spoken to through the SDK's client (`acp.client().connect(ndJsonStream)`):
 * the SDK frames and correlates JSON-RPC; `tapAcpStream` hands updates and prompt answers over in wire order.
 * The client offers no file system or terminal of its own: agents use their own tools in the thread's folder.
 */
export function spawnAcpAgent(options: SpawnAcpAgentOptions): AcpAgentProcess {
  const { sdk } = options;
  // Detached: the agent leads a process group of its own, so closing the thread ends its children too.
  const child = spawn(options.executable, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const going = new AbortController();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)));
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
  });
  const endGroup = () => (child.pid === undefined ? Promise.resolve() : endProcessGroup(child.pid, GROUP_GRACE_MS));
  // An agent that died leaves no children behind either.
  void exited.then(() => {
    going.abort(new Error('the agent exited'));
    return endGroup();
  });
  // A write after the agent died must not become an uncaught EPIPE: the exit is reported instead.
  child.stdin.on('error', () => undefined);
  const stream = sdk.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection: ClientConnection = sdk
    .client({ name: 'agent-thread-service' })
    // Updates are taken from the wire by the tap, in order, and read leniently by the turn rules; the handler only
    // tells the SDK they are expected (its own parser would log every update of a kind it does not know).
    .onNotification<unknown>(
      sdk.methods.client.session.update,
      (params: unknown) => params,
      () => undefined,
    )
    .onRequest(sdk.methods.client.session.requestPermission, ({ params }) => options.requestPermission(params, going.signal))
    .connect(tapAcpStream(stream, options));
  // A process whose connection died would answer nothing ever again, yet live on: it ends (issue 37), and the
  // thread's next prompt starts a fresh one. Killed at once: it cannot be asked to exit over a dead stream.
  connection.signal.addEventListener('abort', () => {
    if (going.signal.aborted) return;
    going.abort(new Error('the connection to the agent closed'));
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    connection,
    pid: child.pid,
    exited,
    gone: going.signal,
    stderrTail: () => stderr.trim(),
    async close(graceMs = 5_000) {
      going.abort(new Error('the agent is being closed'));
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        if (graceMs === 0) child.kill('SIGKILL');
        await exited;
        clearTimeout(killer);
        connection.close();
      }
      await endGroup();
    },
  };
}
