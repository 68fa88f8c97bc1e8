import { useSignalEffect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { signedIn } from '../api/http';
import type { Project } from '../api/types';
import { listedThread, projects, startDirectory, threads } from '../state/directory';
import { notice } from '../state/notice';
import { openQuickOpen, preview } from '../state/quickOpen';
import { route } from '../state/route';
import { waitingCount } from '../state/waiting';
import { FilePreview } from './FilePreview';
import { NewProject } from './NewProject';
import { NewThread } from './NewThread';
import { QuickOpen } from './QuickOpen';
import { Sidebar } from './Sidebar';
import { SignIn } from './SignIn';
import { ThreadView } from './ThreadView';

/** The project quick-open searches: the open thread's, the one a new thread goes into, else the newest. */
function currentProject(): Project | undefined {
  const current = route.value;
  const projectId =
    current.page === 'thread' ? listedThread(current.threadId)?.projectId : current.page === 'newThread' ? current.projectId : undefined;
  return (
    projects.value.find((project) => project.id === projectId) ??
    [...projects.value].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]
  );
}

function startQuickOpen(): void {
  const project = currentProject();
  if (project) openQuickOpen(project, (entry) => (preview.value = { project, path: entry.path }));
}

/** The tab's title: the open thread's, led by how many threads wait for an answer, so a background tab shows it. */
function documentTitle(): string {
  const current = route.value;
  const title = current.page === 'thread' ? listedThread(current.threadId)?.title : undefined;
  const count = waitingCount.value;
  return `${count > 0 ? `(${count}) ` : ''}${title ? `${title} · ` : ''}Agent threads`;
}

export function App() {
  useEffect(() => startDirectory(), []);
  useSignalEffect(() => void (document.title = documentTitle()));
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Ctrl+P, and Cmd+P on macOS: the browser's print dialog gives way to quick-open.
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'p') {
        event.preventDefault();
        startQuickOpen();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  if (signedIn.value === null) return <p class="muted loading">Signing in…</p>;
  if (!signedIn.value) return <SignIn />;
  const current = route.value;
  return (
    <div class="layout">
      <header class="top">
        <a class="brand" href="#/">
          Agent threads
        </a>
        <button
          type="button"
          class="small"
          onClick={startQuickOpen}
          disabled={projects.value.length === 0}
          aria-keyshortcuts="Control+P Meta+P"
        >
          Quick open <kbd>Ctrl+P</kbd>
        </button>
      </header>
      <Sidebar />
      <main class="main">
        <Notice />
        <FilePreview />
        {current.page === 'home' && <Home />}
        {current.page === 'newProject' && <NewProject />}
        {current.page === 'newThread' && <NewThread key={current.projectId} projectId={current.projectId} />}
        {current.page === 'thread' && <ThreadView key={current.threadId} threadId={current.threadId} />}
      </main>
      <QuickOpen />
    </div>
  );
}

function Home() {
  return (
    <section class="panel">
      <h2>Welcome</h2>
      <p>
        Pick a thread on the left, <a href="#/projects/new">create a project</a> from a folder on a host, or press <kbd>Ctrl+P</kbd> to open
        a file.
      </p>
    </section>
  );
}

/** What happened away from where the reader looked (a thread deleted elsewhere closed its view). */
function Notice() {
  if (!notice.value) return null;
  return (
    <div class="notice" role="status">
      <span>{notice.value}</span>{' '}
      <button type="button" class="small secondary" onClick={() => (notice.value = null)}>
        Dismiss
      </button>
    </div>
  );
}
