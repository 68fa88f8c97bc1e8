export { BUILT_IN_ACP_AGENTS, declaredAcpAgents, DECLARED_ACP_AGENTS_ENV, type AcpAgentSpec, type BuiltInAcpAgent } from './acpAgentSpecs';
export { createAcpProvider, type AcpProviderOptions } from './createAcpProvider';
