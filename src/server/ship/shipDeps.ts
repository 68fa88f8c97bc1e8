import type { Registry } from '../../registry/registry';
import type { EventHub } from '../sse/eventHub';
import type { EventStore } from '../../store/eventStore';
import type { HostDirectory } from '../hosts/hostDirectory';

/** What shipping a thread needs on the server: its record, its host, and the rows of a generating turn. */
export interface ShipDeps {
  registry: Registry;
  hosts: HostDirectory;
  store: EventStore;
  hub: EventHub;
  log(message: string): void;
}
