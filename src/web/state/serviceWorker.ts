/**
 * Registers `sw.js` (src/web/public/sw.js), which keeps the page's shell for a second load and an installed
 * app; it never stores an API answer (issue 31). A browser without service workers, or a page served over
 * plain HTTP from another machine (not a secure context), loads from the network as before.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('./sw.js').catch(() => undefined);
}
