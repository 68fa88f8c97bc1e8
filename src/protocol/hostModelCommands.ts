import { z } from 'zod';

/** `host.list_models`: the models a host's agents can run, for a model picker (issue 15). */
export const ListModelsParamsSchema = z.strictObject({
  /** Only this agent provider's models (e.g. `pi`); all of the host's providers when unset. */
  provider: z.string().min(1).optional(),
});
export type ListModelsParams = z.infer<typeof ListModelsParamsSchema>;

/** One model, named as `POST /threads` takes it: `provider` is the agent, `model` its `provider/modelId`. */
export const AgentModelSchema = z.object({
  provider: z.string(),
  model: z.string(),
  name: z.string(),
  /** Tokens of context the model takes; the page shows a thread's fill against it. */
  contextWindow: z.number().int().nonnegative().optional(),
  maxTokens: z.number().int().nonnegative().optional(),
  reasoning: z.boolean().optional(),
  /** False when the host has no key or login for the model's provider: a thread on it would fail to prompt. */
  available: z.boolean(),
});
export type AgentModel = z.infer<typeof AgentModelSchema>;

export const ListModelsResultSchema = z.strictObject({
  models: z.array(AgentModelSchema),
  /** An agent whose catalog could not be read (a broken `models.json`): its models are missing, the reason is here. */
  errors: z.array(z.strictObject({ provider: z.string(), message: z.string() })),
});
export type ListModelsResult = z.infer<typeof ListModelsResultSchema>;

export const hostModelCommands = {
  'host.list_models': { params: ListModelsParamsSchema, result: ListModelsResultSchema },
} as const;
