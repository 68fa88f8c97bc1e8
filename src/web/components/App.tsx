import { useSignal, useSignalEffect } from '@preact/signals';
import { ChevronLeft, Menu, MessagesSquare, Search } from 'lucide-preact';
import { useEffect } from 'preact/hooks';
import { signedIn } from '../api/http';
import { tradingToken } from '../api/session';
import type { Project } from '../api/types';
import { newestFirst } from '../render/listText';
import { directoryLoaded, listedThread, projects, startDirectory } from '../state/directory';
import { notice } from '../state/notice';
import { attentionCount, watchThreadChanges } from '../state/notifications';
import { openQuickOpen, preview } from '../state/quickOpen';
import { route } from '../state/route';
import { Home } from './Home';
import { lazyComponent } from './lazyComponent';
import { NotifyButton } from './NotifyButton';
import { QuickOpen } from './QuickOpen';
import { SearchBox } from './SearchBox';
import { Sidebar } from './Sidebar';
import { SignIn } from './SignIn';
import { ThemeToggle } from './ThemeToggle';

// Not on the first screen: out of the entry, so the lists paint without their code (issue 29); preloaded
// after that paint (`preloadPages`).
const ThreadView = lazyComponent(() => import('./ThreadView').then((module) => module.ThreadView));
const FilePreview = lazyComponent(() => import('./FilePreview').then((module) => module.FilePreview));
const NewThread = lazyComponent(() => import('./NewThread').then((module) => module.NewThread));
const NewProject = lazyComponent(() => import('./NewProject').then((module) => module.NewProject));

/** Loads the pages the first screen left out, so the first click on a thread or a form finds them ready. */
export function preloadPages(): Promise<unknown> {
  return Promise.all([ThreadView, FilePreview, NewThread, NewProject].map((page) => page.preload()));
}

/** The project quick-open searches: the open thread's, the one a new thread goes into, else the newest. */
function currentProject(): Project | undefined {
  const current = route.value;
  const projectId =
    current.page === 'thread' ? listedThread(current.threadId)?.projectId : current.page === 'newThread' ? current.projectId : undefined;
  return projects.value.find((project) => project.id === projectId) ?? [...projects.value].sort(newestFirst)[0];
}

function startQuickOpen(): void {
  const project = currentProject();
  if (project) openQuickOpen(project, (entry) => (preview.value = { project, path: entry.path }));
}

/**
 * The tab's title: the open thread's, led by how many threads wait for an answer or have a turn ended that
 * the user has not seen (issue 31), so a background tab shows it.
 */
function documentTitle(): string {
  const current = route.value;
  const title = current.page === 'thread' ? listedThread(current.threadId)?.title : undefined;
  const count = attentionCount.value;
  return `${count > 0 ? `(${count}) ` : ''}${title ? `${title} · ` : ''}Agent threads`;
}

export function App() {
  useEffect(() => startDirectory(), []);
  useEffect(() => watchThreadChanges(), []);
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

  // A narrow window shows the lists as a drawer over the page: closed again by every navigation.
  const menuOpen = useSignal(false);
  useSignalEffect(() => void (route.value, (menuOpen.value = false)));

  if (signedIn.value === null && !tradingToken.value) return <p class="muted loading">Signing in…</p>;
  if (!signedIn.value) return <SignIn />;
  const current = route.value;
  return (
    <div
      // On a phone the lists are the home screen and every other page a screen of its own (issue 31).
      class={`layout${menuOpen.value ? ' menu-open' : ''}${current.page === 'home' ? ' on-list' : ''}`}
      onKeyDown={(event) => event.key === 'Escape' && menuOpen.value && (menuOpen.value = false)}
    >
      <header class="top">
        <button
          type="button"
          class="icon-button menu-toggle"
          aria-label="Threads and projects"
          aria-expanded={menuOpen.value}
          aria-controls="sidebar"
          onClick={() => (menuOpen.value = !menuOpen.value)}
        >
          <Menu size={18} aria-hidden="true" />
        </button>
        <a class="icon-button back-button" href="#/" aria-label="Back to threads" title="Back to threads">
          <ChevronLeft size={20} aria-hidden="true" />
        </a>
        <a class="brand" href="#/">
          <MessagesSquare class="brand-mark" size={20} aria-hidden="true" />
          Agent threads
        </a>
        <span class="top-actions">
          <button
            type="button"
            class="small quick-open-button"
            onClick={startQuickOpen}
            // While the lists load it stays usable: Ctrl+P works the moment a project is known.
            disabled={directoryLoaded.value && projects.value.length === 0}
            aria-keyshortcuts="Control+P Meta+P"
          >
            <Search size={15} aria-hidden="true" />
            Quick open <kbd>Ctrl+P</kbd>
          </button>
          <NotifyButton />
          <ThemeToggle />
        </span>
      </header>
      <Sidebar />
      {menuOpen.value && <div class="drawer-backdrop" onClick={() => (menuOpen.value = false)} />}
      <main class={`main${preview.value ? ' with-preview' : ''}`}>
        <div class="main-page">
          <Notice />
          {current.page === 'home' && <Home />}
          {current.page === 'newProject' && <NewProject />}
          {current.page === 'newThread' && <NewThread key={current.projectId} projectId={current.projectId} />}
          {current.page === 'thread' && (
            <ThreadView key={`${current.threadId}?${current.seq ?? ''}`} threadId={current.threadId} seq={current.seq} />
          )}
        </div>
        {preview.value && <FilePreview />}
      </main>
      <QuickOpen />
      <SearchBox />
    </div>
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
