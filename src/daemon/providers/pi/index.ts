export { createPiProvider, type PiProviderOptions } from './createPiProvider';
export { deletePiSession } from './deletePiSession';
export { rewindPiSession } from './rewindPiSession';
export { forkPiSession, forkPiSessionAt } from './forkPiSession';
export { listPiModels } from './listPiModels';
export { PI_PROVIDER_ID } from './piFrames';

/** Where a process of its own finds `createPiProvider` (the isolated provider forks one per thread). */
export const piProviderModule = { module: require.resolve('./createPiProvider'), exportName: 'createPiProvider' } as const;
