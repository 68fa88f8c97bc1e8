export { createPiProvider, type PiProviderOptions } from './createPiProvider';
export { PI_PROVIDER_ID } from './piFrames';
