import { hosts, now, projects, statusText, threads } from '../state/directory';
import { route, threadHref } from '../state/route';
import type { Host, Thread } from '../api/types';
import { isWaiting } from '../state/waiting';
import { ArchivedThreads } from './ArchivedThreads';
import { EnrollHost } from './hosts/EnrollHost';
import { RemoveHost } from './hosts/RemoveHost';

/** Hosts, then each project with its threads; every status is text, live. */
export function Sidebar() {
  const current = route.value.page === 'thread' ? route.value.threadId : null;
  return (
    <nav class="sidebar" aria-label="Threads">
      <section aria-labelledby="hosts-heading">
        <div class="section-head">
          <h2 id="hosts-heading">Hosts</h2>
          <EnrollHost />
        </div>
        <ul class="hosts">
          {hosts.value.map((host) => (
            <HostEntry key={host.id} host={host} />
          ))}
          {hosts.value.length === 0 && <li class="muted">No host has connected yet.</li>}
        </ul>
      </section>
      <section aria-labelledby="projects-heading">
        <div class="section-head">
          <h2 id="projects-heading">Projects</h2>
          <a class="button small" href="#/projects/new">
            New project
          </a>
        </div>
        {projects.value.length === 0 && <p class="muted">No project yet.</p>}
        {projects.value.map((project) => {
          const own = threads.value
            .filter((thread) => thread.projectId === project.id)
            .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
          return (
            <section key={project.id} class="project" aria-label={`Project ${project.name}`}>
              <div class="section-head">
                <h3 title={project.source.path}>{project.name}</h3>
                <a
                  class="button small"
                  href={`#/projects/${encodeURIComponent(project.id)}/threads/new`}
                  aria-label={`New thread in ${project.name}`}
                >
                  New thread
                </a>
              </div>
              <ul class="threads">
                {own.map((thread) => (
                  <ThreadEntry key={thread.id} thread={thread} current={thread.id === current} />
                ))}
                {own.length === 0 && <li class="muted">No thread yet.</li>}
              </ul>
            </section>
          );
        })}
      </section>
      <ArchivedThreads current={current} />
    </nav>
  );
}

function HostEntry({ host }: { host: Host }) {
  const state = host.online ? 'online' : 'reconnecting';
  return (
    <li class="host">
      <span class={`dot ${state}`} aria-hidden="true" />
      <span class="host-name">{host.name || host.id}</span> <span class={`status ${state}`}>{state}</span>
      {!host.embedded && <RemoveHost host={host} />}
    </li>
  );
}

function ThreadEntry({ thread, current }: { thread: Thread; current: boolean }) {
  const status = statusText(thread, now.value);
  const waiting = isWaiting(thread);
  return (
    <li>
      <a
        class={`thread-link${current ? ' current' : ''}${waiting ? ' waiting' : ''}`}
        href={threadHref(thread.id)}
        aria-current={current ? 'page' : undefined}
      >
        <span class="thread-title">{thread.title}</span>
        <span class={`status ${thread.runtime.displayStatus}`}>{status}</span>
        {waiting && <span class="needs-answer">Needs your answer</span>}
      </a>
    </li>
  );
}
