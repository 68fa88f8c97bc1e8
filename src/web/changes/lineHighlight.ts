import { escapeHtml, highlightCode, languageOfPath } from '../render/highlight';

/** Lines longer than this are shown plain: one minified line must not stall a scroll. */
const MAX_HIGHLIGHT_LINE = 2_000;

/**
 * Highlights diff lines one at a time, as they come on screen, and keeps each answer: a 50,000-line change
 * is never highlighted whole. A line alone loses the context of a multi-line string or comment; the cost of
 * that is a wrong colour, the gain is that only the rows rendered are ever highlighted.
 */
export function lineHighlighter(): (path: string, text: string) => string {
  const cache = new Map<string, string>();
  return (path, text) => {
    const language = languageOfPath(path);
    if (!language || text.length > MAX_HIGHLIGHT_LINE) return escapeHtml(text);
    const key = `${language}\u0000${text}`;
    let html = cache.get(key);
    if (html === undefined) {
      html = highlightCode(text, language);
      cache.set(key, html);
    }
    return html;
  };
}
