import { useState } from 'preact/hooks';
import { removeHost } from '../../api/hosts';
import type { Host } from '../../api/types';
import { refreshDirectory } from '../../state/directory';
import { ConfirmDialog } from '../ConfirmDialog';

/**
 * "Remove" beside a host, with a confirmation saying what happens: its link closes now and it cannot connect
 * again until enrolled with a new code; its projects and threads stay. Cancel is the first focus.
 */
export function RemoveHost({ host }: { host: Host }) {
  const [asking, setAsking] = useState(false);
  const name = host.name || host.id;
  return (
    <>
      <button type="button" class="small danger-text" aria-label={`Remove host ${name}`} onClick={() => setAsking(true)}>
        Remove
      </button>
      {asking && <ConfirmRemove hostId={host.id} name={name} onClose={() => setAsking(false)} />}
    </>
  );
}

function ConfirmRemove({ hostId, name, onClose }: { hostId: string; name: string; onClose(): void }) {
  const remove = async () => {
    await removeHost(hostId);
    await refreshDirectory();
    onClose();
  };
  return (
    <ConfirmDialog id="remove-host" heading={`Remove host ${name}?`} confirm="Remove" busy="Removing…" act={remove} onClose={onClose}>
      Its connection closes now and it cannot connect again until it is enrolled with a new code. Its projects and threads stay.
    </ConfirmDialog>
  );
}
