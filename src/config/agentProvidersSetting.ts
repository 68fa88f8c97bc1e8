import { z } from 'zod';
import { AGENT_PROVIDER_IDS } from '../daemon/providerFactories';

/** `pi`, `pi,other`, or `none` (intake-only threads); only ids of PROVIDER_FACTORIES pass. */
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
  .pipe(z.array(z.enum(AGENT_PROVIDER_IDS)));
