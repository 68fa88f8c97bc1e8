import { z } from 'zod';

/**
 * Names a provider factory an agent process can load by itself: a module path, its export (called with
 * `options` plus a `log`), and options that survive JSON. Functions cannot cross a process boundary, so the
 * factory is named rather than passed.
 */
export const ProviderFactoryRefSchema = z.strictObject({
  module: z.string().min(1),
  exportName: z.string().min(1),
  options: z.record(z.string(), z.unknown()).default({}),
});
export type ProviderFactoryRef = z.input<typeof ProviderFactoryRefSchema>;
