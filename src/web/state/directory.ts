import { effect, signal, untracked } from '@preact/signals';
import { answerOf, client, signedIn } from '../api/http';
import { getArchivedThreads } from '../api/threadLifecycle';
import type { Host, Project, Thread } from '../api/types';

/** Hosts, projects and threads as the lists show them, refreshed every couple of seconds. */
export const hosts = signal<Host[]>([]);
export const projects = signal<Project[]>([]);
export const threads = signal<Thread[]>([]);
/** Archived threads (`GET /threads?archived=true`), fetched only while the "Archived" section is open. */
export const archivedThreads = signal<Thread[]>([]);
export const archivedShown = signal(false);
/**
 * False until the first poll after sign-in answered: the lists then say "Loading…", never "No host has
 * connected yet." about hosts and projects the server has not been asked about yet (issue 29).
 */
export const directoryLoaded = signal(false);
/** Ticks every second: the reconnect grace's countdown reads it. */
export const now = signal(Date.now());

const REFRESH_MS = 1500;
let timer: ReturnType<typeof setTimeout> | undefined;
let polled: Promise<void> | undefined;

/**
 * The poll's read: one still under way is joined, not asked again (the entry reads the lists as the page
 * loads, and the poll's first beat comes while that read may still run). After a change of its own the page
 * calls `refreshDirectory`, which always asks.
 */
export function pollDirectory(token?: string): Promise<void> {
  polled ??= refreshDirectory(token).finally(() => (polled = undefined));
  return polled;
}

/** Reads the lists with the session cookie, or with `token` as a bearer token while it is traded for one. */
export async function refreshDirectory(token?: string): Promise<void> {
  const params = token ? { headers: { authorization: `Bearer ${token}` } } : {};
  try {
    const [hostList, projectList, threadList, archivedList] = await Promise.all([
      answerOf(client.GET('/api/v1/hosts', params)),
      answerOf(client.GET('/api/v1/projects', params)),
      answerOf(client.GET('/api/v1/threads', params)),
      // A server before issue 28 refuses the query: the section then stays as it was.
      archivedShown.value ? getArchivedThreads().catch(() => archivedThreads.value) : Promise.resolve([]),
    ]);
    hosts.value = sameJson(hosts.value, hostList) ? hosts.value : hostList;
    projects.value = sameJson(projects.value, projectList) ? projects.value : projectList;
    // A server before issue 28 lists archived threads too: they belong in the "Archived" section only.
    const active = threadList.filter((thread: Thread) => !thread.archived);
    threads.value = sameJson(threads.value, active) ? threads.value : active;
    archivedThreads.value = sameJson(archivedThreads.value, archivedList) ? archivedThreads.value : archivedList;
    directoryLoaded.value = true;
  } catch {
    // The lists keep what they showed; a 401 flips `signedIn` and the page asks for the token.
  }
}

/** A thread found in either list (the open thread may be an archived one). */
export function listedThread(threadId: string): Thread | undefined {
  return threads.value.find((thread) => thread.id === threadId) ?? archivedThreads.value.find((thread) => thread.id === threadId);
}

/** Takes a deleted thread out of the lists at once, before the next poll would. */
export function forgetThread(threadId: string): void {
  threads.value = threads.value.filter((thread) => thread.id !== threadId);
  archivedThreads.value = archivedThreads.value.filter((thread) => thread.id !== threadId);
}

/**
 * Polls while signed in; the thread view's own stream is live, the lists follow within REFRESH_MS. The first
 * poll runs the moment sign-in answers: a loop that only looked at `signedIn` on its own beat found the page
 * still signing in and waited a whole period, ~1.5 s of empty lists (issue 29).
 */
export function startDirectory(): () => void {
  let stopped = false;
  let polling = false;
  const poll = async () => {
    clearTimeout(timer);
    if (stopped || polling) return;
    polling = true;
    try {
      if (signedIn.value) await pollDirectory();
    } finally {
      polling = false;
    }
    if (!stopped) timer = setTimeout(poll, REFRESH_MS);
  };
  // Only sign-in wakes the poll: what a refresh reads (the archived section's switch) is not watched here.
  const stopWatching = effect(() => {
    if (signedIn.value) untracked(() => void poll());
  });
  const ticker = setInterval(() => (now.value = Date.now()), 1000);
  return () => {
    stopped = true;
    stopWatching();
    clearTimeout(timer);
    clearInterval(ticker);
  };
}

/** A new list with the same content keeps the old array, so nothing re-renders for it. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function statusText(thread: Thread, at: number): string {
  const { displayStatus, hostReconnectGraceExpiresAt } = thread.runtime;
  if (displayStatus === 'host-reconnecting' && hostReconnectGraceExpiresAt !== null) {
    return `host-reconnecting (${Math.max(0, Math.ceil((hostReconnectGraceExpiresAt - at) / 1000))} s left)`;
  }
  // A prompt that failed (no key, no agent) leaves the thread idle: the list says so until the next turn (issue 29).
  if (displayStatus === 'idle' && thread.lastTurnStatus === 'failed') return 'idle, last turn failed';
  return displayStatus;
}
