import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as AcpSdkModule from '@agentclientprotocol/sdk';

/** The official ACP SDK (2.x, ACP v1). Only this folder names it. */
export type AcpSdk = typeof AcpSdkModule;

export const ACP_SDK_PACKAGE = '@agentclientprotocol/sdk';

// The SDK is ESM-only and we are CommonJS (see loadPiSdk.ts): the import lives where the compiler cannot turn
// it into `require()`.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

let loading: Promise<AcpSdk> | undefined;

/** Loads the SDK once per process. */
export function loadAcpSdk(): Promise<AcpSdk> {
  loading ??= importEsm(pathToFileURL(resolveEntry()).href).then((module) => module as AcpSdk);
  loading.catch(() => (loading = undefined));
  return loading;
}

function resolveEntry(): string {
  for (const folder of require.resolve.paths(ACP_SDK_PACKAGE) ?? []) {
    const packageJson = path.join(folder, ACP_SDK_PACKAGE, 'package.json');
    if (!existsSync(packageJson)) continue;
    const { main } = JSON.parse(readFileSync(packageJson, 'utf8')) as { main?: string };
    return path.join(path.dirname(packageJson), main ?? 'dist/v1/stable/acp.js');
  }
  throw new Error(`${ACP_SDK_PACKAGE} is not installed (run npm ci)`);
}
