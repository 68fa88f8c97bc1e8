import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { ClientConnection, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { AcpSdk } from './loadAcpSdk';
import { tapAcpStream, type AcpWireObserver } from './tapAcpStream';

export interface AcpAgentProcess {
  readonly connection: ClientConnection;
  readonly pid: number | undefined;
  /** Resolves with how the process ended (`code 1`, `signal SIGKILL`, or the spawn error). */
  readonly exited: Promise<string>;
  /** The end of what the agent wrote to stderr, for an error message. */
  stderrTail(): string;
  /** Closes stdin (ACP agents exit on it), then kills what is left after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

export interface SpawnAcpAgentOptions extends AcpWireObserver {
  sdk: AcpSdk;
  executable: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  requestPermission(params: RequestPermissionRequest): Promise<RequestPermissionResponse>;
}

const STDERR_TAIL_CHARS = 4000;

/**
 * One ACP agent process on stdio, spoken to through the SDK's client (`acp.client().connect(ndJsonStream)`):
 * the SDK frames and correlates JSON-RPC; `tapAcpStream` hands updates and prompt answers over in wire order.
 * The client offers no file system or terminal of its own: agents use their own tools in the thread's folder.
 */
export function spawnAcpAgent(options: SpawnAcpAgentOptions): AcpAgentProcess {
  const { sdk } = options;
  const child = spawn(options.executable, [...options.args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)));
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
  });
  // A write after the agent died must not become an uncaught EPIPE: the exit is reported instead.
  child.stdin.on('error', () => undefined);
  const stream = sdk.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = sdk
    .client({ name: 'agent-thread-service' })
    // Updates are taken from the wire by the tap, in order, and read leniently by the turn rules; the handler only
    // tells the SDK they are expected (its own parser would log every update of a kind it does not know).
    .onNotification<unknown>(
      sdk.methods.client.session.update,
      (params: unknown) => params,
      () => undefined,
    )
    .onRequest(sdk.methods.client.session.requestPermission, ({ params }) => options.requestPermission(params))
    .connect(tapAcpStream(stream, options));
  return {
    connection,
    pid: child.pid,
    exited,
    stderrTail: () => stderr.trim(),
    async close(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(killer);
      connection.close();
    },
  };
}
