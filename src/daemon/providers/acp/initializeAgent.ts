import type { ClientConnection, InitializeResponse } from '@agentclientprotocol/sdk';
import type { AcpSdk } from './loadAcpSdk';

/** `initialize` (ACP v1): the agent's capabilities; rejects when the agent speaks another version of ACP. */
export async function initializeAgent(sdk: AcpSdk, connection: ClientConnection): Promise<InitializeResponse> {
  const init = await connection.agent.request(sdk.methods.agent.initialize, {
    protocolVersion: sdk.PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: 'agent-thread-service', version: '0.1.0' },
  });
  if (init.protocolVersion !== sdk.PROTOCOL_VERSION) {
    throw new Error(`the agent speaks ACP version ${init.protocolVersion}; this service speaks version ${sdk.PROTOCOL_VERSION}`);
  }
  return init;
}

/** Whether the agent deletes its sessions over ACP (`session/delete`), as its `initialize` said. */
export const canDeleteSessions = (init: InitializeResponse): boolean => Boolean(init.agentCapabilities?.sessionCapabilities?.delete);

/**
 * Whether the agent forks its sessions over ACP (`session/fork`, unstable in ACP v1: `sessionCapabilities.fork`,
 * which the SDK's stable types leave out but pass through). Claude Code's adapter and codex-acp do.
 */
export const canForkSessions = (init: InitializeResponse): boolean =>
  Boolean((init.agentCapabilities?.sessionCapabilities as { fork?: unknown } | null | undefined)?.fork);
