import { z } from 'zod';
import { knownProviderIds } from '../daemon/providerFactories';

/**
 * `pi`, `pi,claude,codex`, or `none` (intake-only threads); only ids of PROVIDER_FACTORIES and the ACP agents
 * declared in `ATS_ACP_AGENTS` (read from the process environment, as the providers are) pass.
 */
export const AgentProvidersSettingSchema = z
  .string()
  .default('pi')
  .transform((value) =>
    value.trim() === 'none'
      ? []
      : value
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
  )
  .pipe(
    z.array(z.string()).superRefine((ids, context) => {
      let known: string[];
      try {
        known = knownProviderIds();
      } catch (error) {
        return context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      }
      for (const id of ids) {
        if (!known.includes(id))
          context.addIssue({ code: 'custom', message: `Invalid option: expected one of ${known.map((k) => `"${k}"`).join('|')}` });
      }
    }),
  );
