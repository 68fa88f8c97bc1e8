import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { groupGone } from '../server/process';

/**
 * A bare ACP client over the official SDK for tests that check an agent itself (not the service): spawns it
 * over stdio, records every `session/update` and permission request, and allows permission once by the
 * option's `kind` (option ids differ between agents).
 */
export interface AcpTestClient {
  readonly connection: acp.ClientConnection;
  readonly updates: acp.SessionUpdate[];
  readonly permissionRequests: acp.RequestPermissionRequest[];
  /** What the agent wrote to stderr, for a failure message. */
  stderr(): string;
  /**
   * Closes stdin (the agents exit on it) and waits until no process of its group is left: Claude Code's own
   * children outlived the adapter and wrote into the suite's temp HOME after it was removed (a CI failure).
   */
  close(): Promise<void>;
}

export function startAcpTestClient(command: string, options: { cwd: string; env: Record<string, string>; args?: string[] }): AcpTestClient {
  const child = spawn(command, options.args ?? [], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const updates: acp.SessionUpdate[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const connection = acp
    .client({ name: 'ats-test' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      const allow = params.options.find((option) => option.kind === 'allow_once');
      return allow ? { outcome: { outcome: 'selected', optionId: allow.optionId } } : { outcome: { outcome: 'cancelled' } };
    })
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  return {
    connection,
    updates,
    permissionRequests,
    stderr: () => stderr,
    async close() {
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      await groupGone(child.pid!, 3_000);
      await groupGone(child.pid!, 3_000); // after a SIGKILL, until the kernel has reaped them
    },
  };
}
