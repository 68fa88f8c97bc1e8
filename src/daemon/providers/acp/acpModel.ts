/**
 * A thread's `model` for an ACP agent: `<agent>/<model id>` as `GET /hosts/:id/models` lists it, or a bare
 * model id. `default` (or nothing) keeps the model the agent picks itself.
 */
export const DEFAULT_ACP_MODEL = 'default';

export function acpModelIdOf(agentName: string, model: string | undefined): string | undefined {
  if (model === undefined || model === '') return undefined;
  const id = model.startsWith(`${agentName}/`) ? model.slice(agentName.length + 1) : model;
  return id === '' || id === DEFAULT_ACP_MODEL ? undefined : id;
}
