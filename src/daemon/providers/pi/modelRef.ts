/** A thread's model as the API names it: `provider/modelId` (the id itself may contain `/`, e.g. OpenRouter's). */
export interface ModelRef {
  provider: string;
  modelId: string;
}

export function parseModelRef(model: string): ModelRef {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw new Error(`model must be "provider/modelId" as in pi's models.json, got "${model}"`);
  }
  return { provider: model.slice(0, slash), modelId: model.slice(slash + 1) };
}
