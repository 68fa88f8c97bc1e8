import { archivedShown, archivedThreads, projects, refreshDirectory } from '../state/directory';
import { threadHref } from '../state/route';

/**
 * The "Archived" section of the thread list, collapsed by default: opening it fetches the archived threads
 * (`GET /threads?archived=true`), and they follow the lists' poll while it stays open.
 */
export function ArchivedThreads({ current }: { current: string | null }) {
  const projectName = (projectId: string) => projects.value.find((project) => project.id === projectId)?.name;
  return (
    <details
      class="archived"
      open={archivedShown.value}
      onToggle={(event) => {
        archivedShown.value = event.currentTarget.open;
        if (archivedShown.value) void refreshDirectory();
      }}
    >
      <summary>
        <h2 id="archived-heading">Archived</h2>
      </summary>
      <ul class="threads" aria-labelledby="archived-heading">
        {archivedThreads.value.map((thread) => (
          <li key={thread.id}>
            <a
              class={`thread-link${thread.id === current ? ' current' : ''}`}
              href={threadHref(thread.id)}
              aria-current={thread.id === current ? 'page' : undefined}
            >
              <span class="thread-title">{thread.title}</span>
              <span class="muted">{projectName(thread.projectId) ?? ''}</span>
            </a>
          </li>
        ))}
        {archivedThreads.value.length === 0 && <li class="muted">No archived thread.</li>}
      </ul>
    </details>
  );
}
