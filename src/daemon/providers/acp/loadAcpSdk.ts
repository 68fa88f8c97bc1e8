import type * as AcpSdkModule from '@agentclientprotocol/sdk';
import { esmPackageLoader } from '../loadEsmPackage';

/** The official ACP SDK (2.x, ACP v1). Only this folder names it. */
export type AcpSdk = typeof AcpSdkModule;

export const ACP_SDK_PACKAGE = '@agentclientprotocol/sdk';

/** Loads the SDK once per process. */
export const loadAcpSdk: () => Promise<AcpSdk> = esmPackageLoader<AcpSdk>(ACP_SDK_PACKAGE, 'dist/v1/stable/acp.js');
