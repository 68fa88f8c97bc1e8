import { Folder, Plus } from 'lucide-preact';
import type { Host, Project, Thread } from '../api/types';
import { absoluteTime, newestFirst, relativeTime, shortFolder, shortId } from '../render/listText';
import { directoryLoaded, hosts, now, projects, statusText, threads } from '../state/directory';
import { route, threadHref } from '../state/route';
import { isWaiting } from '../state/waiting';
import { ArchivedThreads } from './ArchivedThreads';
import { EnrollHost } from './hosts/EnrollHost';
import { RemoveHost } from './hosts/RemoveHost';

/**
 * Hosts, then each project with its threads; every status is text, live. Until the first poll answers, the
 * lists say "Loading…" rather than that nothing exists (issue 29).
 */
export function Sidebar() {
  const current = route.value.page === 'thread' ? route.value.threadId : null;
  const loaded = directoryLoaded.value;
  return (
    <nav class="sidebar" id="sidebar" aria-label="Threads">
      <section aria-labelledby="hosts-heading">
        <div class="section-head">
          <h2 id="hosts-heading">Hosts</h2>
          <EnrollHost />
        </div>
        <ul class="hosts">
          {hosts.value.map((host) => (
            <HostEntry key={host.id} host={host} />
          ))}
          {hosts.value.length === 0 && <li class="muted">{loaded ? 'No host has connected yet.' : 'Loading…'}</li>}
        </ul>
      </section>
      <section aria-labelledby="projects-heading">
        <div class="section-head">
          <h2 id="projects-heading">Projects</h2>
          <a class="button small" href="#/projects/new">
            <Plus size={14} aria-hidden="true" />
            New project
          </a>
        </div>
        {projects.value.length === 0 && <p class="muted">{loaded ? 'No project yet.' : 'Loading…'}</p>}
        {projects.value.map((project) => (
          <ProjectEntry key={project.id} project={project} current={current} />
        ))}
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

/**
 * A project, named and shown with its folder, so two projects of one folder (or two folders' projects of
 * one name) are told apart; then its threads, newest first.
 */
function ProjectEntry({ project, current }: { project: Project; current: string | null }) {
  const own = threads.value.filter((thread) => thread.projectId === project.id).sort(newestFirst);
  const twin = projects.value.some(
    (other) => other.id !== project.id && other.name === project.name && other.source.path === project.source.path,
  );
  const titles = new Map<string, number>();
  for (const thread of own) titles.set(thread.title, (titles.get(thread.title) ?? 0) + 1);
  return (
    <section class="project" aria-label={`Project ${project.name}`}>
      <div class="section-head">
        <h3 title={`${project.source.path} on ${project.source.hostId}`}>
          <Folder class="icon" size={15} aria-hidden="true" />
          <span class="project-name">{project.name}</span>
        </h3>
        <a
          class="button small icon-only"
          href={`#/projects/${encodeURIComponent(project.id)}/threads/new`}
          aria-label={`New thread in ${project.name}`}
          title={`New thread in ${project.name}`}
        >
          <Plus size={15} aria-hidden="true" />
        </a>
      </div>
      <p class="project-folder" title={project.source.path}>
        <span class="folder-path">{shortFolder(project.source.path)}</span>
        {twin && <span class="short-id">{shortId(project.id)}</span>}
      </p>
      <ul class="threads">
        {own.map((thread) => (
          <ThreadEntry key={thread.id} thread={thread} current={thread.id === current} twin={(titles.get(thread.title) ?? 0) > 1} />
        ))}
        {own.length === 0 && <li class="muted">No thread yet.</li>}
      </ul>
    </section>
  );
}

/** Title on the first line; status, age and (for threads of one title) a short id on the second. */
function ThreadEntry({ thread, current, twin }: { thread: Thread; current: boolean; twin: boolean }) {
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
        <span class="thread-line">
          <span class={`status ${thread.runtime.displayStatus}`}>{status}</span>
          <time class="thread-age" dateTime={thread.createdAt} title={`Created ${absoluteTime(thread.createdAt)}`}>
            {relativeTime(thread.createdAt, now.value)}
          </time>
          {twin && <span class="short-id">{shortId(thread.id)}</span>}
        </span>
        {waiting && <span class="needs-answer">Needs your answer</span>}
      </a>
    </li>
  );
}
