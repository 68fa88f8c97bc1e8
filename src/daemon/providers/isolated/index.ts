export { isolateProvider, DEFAULT_AGENT_DISPOSE_TIMEOUT_MS, type IsolateProviderOptions } from './isolateProvider';
export type { ProviderFactoryRef } from './providerFactoryRef';
