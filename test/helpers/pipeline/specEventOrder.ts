/**
 * Spec part 6, "event order seen for an agent-started turn": the row types of such a turn, with the custom
 * message's two boundaries, for a reply streamed in `deltas` text deltas.
 */
export function agentStartedTurnTypes(deltas: number): string[] {
  return [
    'turn/started',
    'provider/unhandled',
    'provider/unhandled',
    'item/started',
    ...Array.from({ length: deltas }, () => 'item/agentMessage/delta'),
    'item/completed',
    'thread/tokenUsage/updated',
    'turn/completed',
    'thread/contextWindowUsage/updated',
  ];
}
