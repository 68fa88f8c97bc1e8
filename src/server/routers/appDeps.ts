import type { Config } from '../../config/serverConfig';
import type { HostPresence } from '../hosts/hostPresence';
import type { Registry } from '../../registry/registry';
import type { EventStore } from '../../store/eventStore';
import type { SearchIndex } from '../../store/search/searchIndex';
import type { EventHub } from '../sse/eventHub';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { HostAccess } from '../hostAccess/hostAccess';
import type { HostRevocations } from '../hostAccess/revocations';

/** Everything the HTTP app needs, injected so tests can build one on any store and any host link. */
export interface AppDeps {
  config: Config;
  token: string;
  registry: Registry;
  hosts: HostDirectory;
  /** When each host's link dropped: `runtime` of threads whose host is away (docs/hosts.md). */
  presence?: HostPresence;
  /** Read side of the events: the same store the daemons' pipelines append to. */
  store: EventStore;
  hub: EventHub;
  /** Full-text search across threads (`GET /search`); the route is absent without it. */
  search?: SearchIndex;
  /** Enrollment codes and host credentials (issue 30). */
  hostAccess: HostAccess;
  /** Closes a removed host's links, on every replica. */
  revocations: HostRevocations;
  log(message: string): void;
}
