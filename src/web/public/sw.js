// The page's service worker (issue 31): keeps the shell (index.html, the built JS and CSS, the icons) so a
// second load and the installed app start from the cache, and NEVER touches an API call: requests under
// /api/ (and any other method than GET, or another origin) go to the network as if no worker were there, so
// no thread, row or token is ever stored here. The page itself is asked of the network first, so a new
// build shows at once; the cached copy answers only when the server cannot be reached.
const SHELL_CACHE = 'agent-threads-shell-v1';
const SHELL_FILES = ['./', './index.html', './manifest.webmanifest', './favicon.svg', './icon-192.png', './icon-512.png'];

const isApi = (url) => url.pathname.includes('/api/') || url.pathname.endsWith('/api');
const isAsset = (url) => /\/assets\/[^/]+$/.test(url.pathname);
const shellUrls = () => SHELL_FILES.map((file) => new URL(file, self.registration.scope).href);

/** The hashed bundles index.html names: cached with it, so the next load needs no network for them. */
async function assetsOf(html) {
  return [...html.matchAll(/(?:src|href)="([^"]*assets\/[^"]+)"/g)].map((match) => new URL(match[1], self.registration.scope).href);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(shellUrls());
      const index = await cache.match(new URL('./index.html', self.registration.scope).href);
      if (index) await cache.addAll(await assetsOf(await index.text()));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL_CACHE) await caches.delete(name);
      // A load's request for the page leaves while the worker starts, not after (issue 29's first screen).
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || isApi(url)) return;
  if (request.mode === 'navigate')
    return event.respondWith(networkFirst(event, new URL('./index.html', self.registration.scope).href, true));
  if (isAsset(url)) return event.respondWith(cacheFirst(request));
  if (shellUrls().includes(url.href)) return event.respondWith(networkFirst(event, url.href));
});

/**
 * The network's answer goes to the page at once; the cache keeps its copy afterwards (`waitUntil`), so a
 * load never waits for the cache's write. A page load takes the request navigation preload already sent.
 */
async function networkFirst(event, key, isPage = false) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const answer = (isPage && (await event.preloadResponse)) || (await fetch(event.request));
    if (answer.ok) event.waitUntil(keep(cache, key, answer.clone(), isPage));
    return answer;
  } catch (failure) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw failure;
  }
}

async function keep(cache, key, answer, isPage) {
  const html = isPage ? await answer.clone().text() : '';
  await cache.put(key, answer);
  if (isPage) await forgetOldAssets(cache, html);
}

/** A new build names new hashed files: the previous build's are dropped rather than kept forever. */
async function forgetOldAssets(cache, html) {
  const current = new Set(await assetsOf(html));
  for (const request of await cache.keys()) if (isAsset(new URL(request.url)) && !current.has(request.url)) await cache.delete(request);
}

async function cacheFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
}
