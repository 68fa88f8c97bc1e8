/** How the lists name things briefly: ages, folders, ids (issue 29). */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago `iso` was, as a list says it at a glance ("just now", "3 min ago", "5 h ago", "yesterday",
 * "4 days ago", then the date); the exact time goes in a title attribute (`absoluteTime`).
 */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const ago = Math.max(0, now - at);
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 2 * DAY) return 'yesterday';
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} days ago`;
  const date = new Date(at);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return dateFormat(sameYear).format(date);
}

/** `toLocaleDateString` with options builds a formatter per call (~1 ms each): a long list keeps two. */
const dateFormats = new Map<boolean, Intl.DateTimeFormat>();
function dateFormat(sameYear: boolean): Intl.DateTimeFormat {
  let format = dateFormats.get(sameYear);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) });
    dateFormats.set(sameYear, format);
  }
  return format;
}

/**
 * The exact local time, `2026-11-27 14:36`, for a tooltip. Built by hand: the first `toLocaleString` of a
 * page loads the locale's ICU data, 20–30 ms in the first screen's way for a title no one reads yet (issue 29).
 */
export function absoluteTime(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const date = new Date(at);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/**
 * Newest first, for a sort: ISO 8601 times of one format order as their characters do, with no collator
 * (`localeCompare`'s first call loads ICU's, as long as rendering the whole list on a first screen).
 */
export function newestFirst(a: { createdAt: string }, b: { createdAt: string }): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/** A folder as a narrow list shows it: its last two segments, the rest elided (`…/work/demo`). */
export function shortFolder(folder: string): string {
  const parts = folder.replace(/\/+$/, '').split('/');
  return parts.length > 3 ? `…/${parts.slice(-2).join('/')}` : folder;
}

/** The last characters of an id: enough to tell two of a kind apart, as a commit's short hash does. */
export function shortId(id: string): string {
  return `#${id.replace(/[^a-z0-9]/gi, '').slice(-5)}`;
}
