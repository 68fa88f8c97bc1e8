import { useEffect, useRef, useState } from 'preact/hooks';
import { answerOf, client, messageOf } from '../api/http';
import type { BrowseDirectoryResult } from '../api/types';
import { hosts, refreshDirectory } from '../state/directory';
import { go } from '../state/route';

/** A project is a folder on a host: picked by browsing the host (`host.browse_directory`) or typed. */
export function NewProject() {
  const online = hosts.value.filter((host) => host.online);
  const [hostId, setHostId] = useState('');
  const [folder, setFolder] = useState('');
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const host = hostId || online[0]?.id || '';

  useEffect(() => heading.current?.focus(), []);

  const choose = (path: string) => {
    setFolder(path);
    if (!nameTouched) setName(path.split('/').filter(Boolean).pop() ?? path);
  };

  return (
    <section class="panel" aria-labelledby="new-project-heading">
      <h2 id="new-project-heading" tabIndex={-1} ref={heading}>
        New project
      </h2>
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const project = await answerOf(
              client.POST('/api/v1/projects', {
                body: { name: name.trim(), source: { type: 'local_path', path: folder.trim(), hostId: host } },
              }),
            );
            await refreshDirectory();
            go(`#/projects/${encodeURIComponent(project.id)}/threads/new`);
          } catch (failure) {
            setError(messageOf(failure));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="project-host">Host</label>
        <select id="project-host" value={host} onChange={(event) => setHostId(event.currentTarget.value)}>
          {hosts.value.map((candidate) => (
            <option key={candidate.id} value={candidate.id} disabled={!candidate.online}>
              {candidate.name || candidate.id} {candidate.online ? '' : '(reconnecting)'}
            </option>
          ))}
        </select>
        <label for="project-folder">Folder</label>
        <input
          id="project-folder"
          required
          value={folder}
          placeholder="/absolute/path/on/the/host"
          onInput={(event) => choose(event.currentTarget.value)}
        />
        {host && <FolderPicker hostId={host} start={folder} onChoose={choose} />}
        <label for="project-name">Name</label>
        <input
          id="project-name"
          required
          value={name}
          onInput={(event) => {
            setName(event.currentTarget.value);
            setNameTouched(true);
          }}
        />
        {error && (
          <p role="alert" class="error-text">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || !host || !folder || !name}>
          Create project
        </button>
      </form>
    </section>
  );
}

/** One folder level at a time: open a folder to go in, "Up" to go out, "Choose" to take it. */
function FolderPicker({ hostId, start, onChoose }: { hostId: string; start: string; onChoose: (path: string) => void }) {
  const [listing, setListing] = useState<BrowseDirectoryResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const browse = async (path: string) => {
    setError(null);
    try {
      setListing(await answerOf(client.GET('/api/v1/hosts/{id}/directories', { params: { path: { id: hostId }, query: { path } } })));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  useEffect(() => {
    void browse(start.startsWith('/') ? start : '/');
  }, [hostId]);

  const parent = listing && listing.path !== '/' ? listing.path.replace(/\/[^/]+\/?$/, '') || '/' : null;
  const folders = listing?.entries.filter((entry) => entry.kind === 'directory') ?? [];
  return (
    <fieldset class="picker">
      <legend>Pick on the host</legend>
      {error && (
        <p role="alert" class="error-text">
          {error}
        </p>
      )}
      {listing && (
        <>
          <div class="picker-bar">
            <code class="picker-path">{listing.path}</code>
            <button type="button" class="small" onClick={() => onChoose(listing.path)}>
              Choose this folder
            </button>
            {parent !== null && (
              <button type="button" class="small" onClick={() => browse(parent)}>
                Up
              </button>
            )}
          </div>
          <ul class="picker-list">
            {folders.map((entry) => (
              <li key={entry.path}>
                {/* Names are the folder's own: no aria-label here, so "Folder" stays the path field's label alone. */}
                <button type="button" class="link-like" onClick={() => browse(entry.path)} title={`Open ${entry.path}`}>
                  {entry.name}
                  <span aria-hidden="true">/</span>
                </button>
                <button type="button" class="small" onClick={() => onChoose(entry.path)} title={`Choose ${entry.path}`}>
                  Choose
                </button>
              </li>
            ))}
            {folders.length === 0 && <li class="muted">No folders here.</li>}
          </ul>
        </>
      )}
    </fieldset>
  );
}
