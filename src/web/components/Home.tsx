import { FolderPlus, MessageSquarePlus } from 'lucide-preact';
import { newestFirst, shortId } from '../render/listText';
import { directoryLoaded, projects } from '../state/directory';

/** The first page: where to start, with the step a newcomer needs next (a project, then a thread) one click away. */
export function Home() {
  const newest = [...projects.value].sort(newestFirst).slice(0, 3);
  return (
    <section class="panel home">
      <h2>Welcome</h2>
      <p>
        Pick a thread in the list, <a href="#/projects/new">create a project</a> from a folder on a host, or press <kbd>Ctrl+P</kbd> to open
        a file.
      </p>
      {!directoryLoaded.value && <p class="muted">Loading…</p>}
      {directoryLoaded.value && newest.length === 0 && (
        <a class="button" href="#/projects/new">
          <FolderPlus size={16} aria-hidden="true" />
          Create your first project
        </a>
      )}
      {newest.length > 0 && (
        <div class="home-actions">
          {newest.map((project) => (
            <a
              key={project.id}
              class="button secondary"
              href={`#/projects/${encodeURIComponent(project.id)}/threads/new`}
              title={project.source.path}
            >
              <MessageSquarePlus size={16} aria-hidden="true" />
              Start a thread in {project.name}
              {newest.some((other) => other !== project && other.name === project.name) && (
                <span class="short-id">{shortId(project.id)}</span>
              )}
            </a>
          ))}
        </div>
      )}
    </section>
  );
}
