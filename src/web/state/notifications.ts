import { computed, effect, signal, untracked } from '@preact/signals';
import type { StoredThreadEvent } from '../api/types';
import { listedThread, threads } from './directory';
import { go, route, threadHref } from './route';
import { changeText, markOf, threadChanges, type ThreadChange, type ThreadMark } from './threadChanges';
import { isWaiting } from './waiting';

const ASKED_KEY = 'agent-threads.notifications-asked';

/** The browser's answer about notifications: `unsupported` where the page has no `Notification` at all. */
export const notificationPermission = signal<NotificationPermission | 'unsupported'>(currentPermission());

/** Threads with a turn ended or a question come while the user looked elsewhere; emptied as each is viewed. */
export const unseenThreads = signal<ReadonlySet<string>>(new Set());

/** The tab title's count: threads waiting for an answer and threads with something new, each counted once. */
export const attentionCount = computed(() => {
  const ids = new Set(unseenThreads.value);
  for (const thread of threads.value) if (isWaiting(thread)) ids.add(thread.id);
  return ids.size;
});

function currentPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks the browser once (a user's gesture must lead here: Chromium ignores a request on load). */
export async function askNotificationPermission(): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  try {
    localStorage.setItem(ASKED_KEY, '1');
  } catch {
    // Storage refused: the page may ask again next load, which is harmless.
  }
  notificationPermission.value = await Notification.requestPermission();
}

function askedBefore(): boolean {
  try {
    return localStorage.getItem(ASKED_KEY) === '1';
  } catch {
    return false;
  }
}

/** The thread the user has in front of them: the open one, while the tab is visible. */
function viewedThread(): string | null {
  const current = route.value;
  return document.visibilityState === 'visible' && current.page === 'thread' ? current.threadId : null;
}

function markSeen(): void {
  const viewed = viewedThread();
  const unseen = untracked(() => unseenThreads.value);
  if (viewed && unseen.has(viewed)) {
    const rest = new Set(unseen);
    rest.delete(viewed);
    unseenThreads.value = rest;
  }
}

function announce(change: ThreadChange): void {
  unseenThreads.value = new Set(unseenThreads.value).add(change.threadId);
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  // One notification per thread (its tag): a later event replaces the earlier one rather than piling up.
  const notification = new Notification(change.title, { body: changeText(change.kind), tag: change.threadId, icon: './icon-192.png' });
  notification.onclick = () => {
    window.focus();
    go(threadHref(change.threadId));
    notification.close();
  };
}

/**
 * The open thread's own live rows (its feed calls this): exact where the lists' poll could miss a turn that
 * started and ended between two polls. The thread is announced only while the tab is hidden.
 */
export function noteOpenThreadRows(threadId: string, rows: readonly StoredThreadEvent[]): void {
  if (viewedThread() === threadId) return;
  const title = listedThread(threadId)?.title ?? 'Agent threads';
  for (const row of rows) {
    if (row.type === 'approval/requested') announce({ threadId, title, kind: 'approval' });
    if (row.type === 'turn/completed' && (row.data.status === 'completed' || row.data.status === 'failed'))
      announce({ threadId, title, kind: row.data.status });
  }
}

/** The thread whose rows come from its feed: the lists' poll leaves it to `noteOpenThreadRows`. */
function openThread(): string | null {
  const current = route.value;
  return current.page === 'thread' ? current.threadId : null;
}

/**
 * Watches the lists' poll for turns that end or fail and questions that come in threads not open (the open
 * one's rows come through `noteOpenThreadRows`) and tells the user: a browser notification when allowed, and
 * the tab title's count until they open the thread. The first prompt the user sends (a form submitted: a
 * gesture the browser accepts) asks for permission, once.
 */
export function watchThreadChanges(): () => void {
  let marks: Map<string, ThreadMark> | null = null;
  const stopWatching = effect(() => {
    const list = threads.value;
    untracked(() => {
      if (marks) for (const change of threadChanges(marks, list)) if (change.threadId !== openThread()) announce(change);
    });
    marks = new Map(list.map((thread) => [thread.id, markOf(thread)]));
  });
  const stopSeeing = effect(() => void (route.value, markSeen()));
  const onVisible = () => markSeen();
  const onSubmit = () => void (!askedBefore() && askNotificationPermission());
  document.addEventListener('visibilitychange', onVisible);
  document.addEventListener('submit', onSubmit, true);
  return () => {
    stopWatching();
    stopSeeing();
    document.removeEventListener('visibilitychange', onVisible);
    document.removeEventListener('submit', onSubmit, true);
  };
}
