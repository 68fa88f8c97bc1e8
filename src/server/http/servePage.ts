import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import { Problem } from './problem';

/** Vite puts content-hashed files here; a new build gives them new names, so a browser may keep them forever. */
const ASSET_PATH = /(?:^|\/)assets\/([^/]+)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current assets: the browser must ask again (a 304 when unchanged). */
const REVALIDATE = 'no-cache';
/** The page fetches only from its own origin and runs only its own bundle, whatever a model writes into it. */
const PAGE_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/**
 * The web page (docs/web.md) from `webDir`, Vite's build of `src/web`: `GET /` and every other path outside
 * `/api/` that names no file is `index.html` (the page routes by itself); `…/assets/<file>` are the hashed
 * bundles, found at any depth because the build links them relatively. No token: the page holds no data
 * until it signs in. A missing build is a 503 that says how to make it.
 */
export function servePage(webDir: string): Middleware {
  const root = path.resolve(webDir);
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const asset = ASSET_PATH.exec(ctx.path);
    if (asset) return sendFile(ctx, path.join(root, 'assets', decodeName(asset[1]!)), IMMUTABLE);
    const named = path.resolve(root, '.' + path.posix.normalize(decodePath(ctx.path)));
    if (named !== root && named.startsWith(root + path.sep) && (await isFile(named))) return sendFile(ctx, named, REVALIDATE);
    // A path that looks like a file the build lacks is a 404, not the page: a broken link should look broken.
    if (/\.[a-z0-9]+$/i.test(ctx.path)) throw new Problem(404, 'file_not_found', `no file ${ctx.path} in the web page's build`);
    const index = path.join(root, 'index.html');
    if (!(await isFile(index))) return notBuilt(ctx, root);
    return sendFile(ctx, index, REVALIDATE);
  };
}

async function sendFile(ctx: Context, file: string, cacheControl: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new Problem(404, 'file_not_found', `no file ${ctx.path} in the web page's build`);
  ctx.type = path.extname(file) === '.map' ? 'application/json' : path.extname(file);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (ctx.type === 'text/html') {
    ctx.set('Content-Security-Policy', PAGE_POLICY);
    ctx.set('Referrer-Policy', 'no-referrer');
  }
  ctx.status = 200; // `ctx.fresh` compares validators only on a 2xx
  ctx.lastModified = info.mtime;
  ctx.etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.length = info.size;
  ctx.body = createReadStream(file);
}

function notBuilt(ctx: Context, root: string): void {
  const detail = `the web page is not built: ${path.join(root, 'index.html')} is missing. Run \`npm run build:web\` (npm ci and npm install build it too).`;
  if (ctx.accepts('html', 'json') !== 'html') throw new Problem(503, 'web_page_not_built', detail);
  ctx.status = 503;
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html><meta charset="utf-8"><title>Page not built</title><h1>The page is not built yet</h1><p>${escapeHtml(detail)}</p><p>The API at <code>/api/v1</code> works without it.</p>`;
}

/** An asset name is one path segment; anything else (an encoded slash, `..`) names no asset. */
function decodeName(raw: string): string {
  const name = decodePath(raw);
  return name.includes('/') || name.includes('\\') || name === '..' || name === '.' ? '\0' : name;
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new Problem(400, 'invalid_path', 'the path is not valid percent-encoded UTF-8');
  }
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
