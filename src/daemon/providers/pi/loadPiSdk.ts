import type * as PiSdkModule from '@mariozechner/pi-coding-agent';
import { esmPackageLoader } from '../loadEsmPackage';

/** The pi coding-agent SDK module (0.73.x). Only this folder names it, so the 1.x upgrade is one folder's change. */
export type PiSdk = typeof PiSdkModule;

export const PI_SDK_PACKAGE = '@mariozechner/pi-coding-agent';

/** Loads the SDK once per process. */
export const loadPiSdk: () => Promise<PiSdk> = esmPackageLoader<PiSdk>(PI_SDK_PACKAGE, 'dist/index.js');
