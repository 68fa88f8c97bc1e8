import type { Page } from 'playwright-core';

/** Where one page load's time went, in ms from its navigation's start. */
export interface Timeline {
  htmlEnd: number;
  /** The last of the page's script and style files asked for before the first screen answered. */
  assetsEnd: number;
  sessionStart: number;
  sessionEnd: number;
  /** The first of `/hosts`, `/projects`, `/threads` sent, and the last answered. */
  listsStart: number;
  listsEnd: number;
  /** The host and project lists (or, without a token, the sign-in form) in the DOM. */
  listsAt: number;
  /** The frame after that painted. */
  paintedAt: number;
}

/**
 * An init script (runs before the page's own): watches the DOM from the first node on and notes when what the
 * load is for is there — with `#token=` in the URL the host and project lists, without it the sign-in form —
 * then when the next frame has painted (a requestAnimationFrame, then a task after it).
 */
export function firstScreenProbe(): void {
  const wantsLists = location.hash.includes('token=');
  const ready = () =>
    wantsLists
      ? document.querySelector('.hosts .host') !== null && document.querySelector('.project') !== null
      : Array.from(document.querySelectorAll('button')).some((button) => button.textContent === 'Sign in');
  const observer = new MutationObserver(() => {
    if (!ready()) return;
    observer.disconnect();
    Object.assign(window, { __listsAt: performance.now() });
    performance.mark('first-screen-in-dom');
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark('first-screen-painted');
        Object.assign(window, { __paintedAt: performance.now() });
      }),
    );
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** The load's timeline, read from the page's Resource Timing entries and the probe's two marks. */
export async function timelineOf(page: Page): Promise<Timeline> {
  return page.evaluate(() => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const ofPath = (test: (pathname: string) => boolean) => resources.filter((entry) => test(new URL(entry.name).pathname));
    const marks = window as unknown as { __listsAt: number; __paintedAt: number };
    // Only what the first screen waited for: code loaded after it (the other pages, preloaded) is not.
    const assets = ofPath((pathname) => /\.(js|css)$/.test(pathname) && !pathname.endsWith('sw.js')).filter(
      (entry) => entry.startTime < marks.__listsAt,
    );
    const session = ofPath((pathname) => pathname === '/api/v1/session')[0];
    const lists = ofPath((pathname) => ['/api/v1/hosts', '/api/v1/projects', '/api/v1/threads'].includes(pathname)).slice(0, 3);
    return {
      htmlEnd: navigation.responseEnd,
      assetsEnd: Math.max(0, ...assets.map((entry) => entry.responseEnd)),
      sessionStart: session?.startTime ?? 0,
      sessionEnd: session?.responseEnd ?? 0,
      listsStart: lists.length ? Math.min(...lists.map((entry) => entry.startTime)) : 0,
      listsEnd: lists.length ? Math.max(...lists.map((entry) => entry.responseEnd)) : 0,
      listsAt: marks.__listsAt,
      paintedAt: marks.__paintedAt,
    };
  });
}
