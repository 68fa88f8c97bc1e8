import { defineConfig, type Plugin } from 'vite';
import path from 'node:path';

/**
 * The entry (src/web/main.tsx) signs in and asks for the lists while the rest of the page loads through a
 * dynamic import; a `modulepreload` link per such chunk in index.html starts its download with the entry's
 * instead of after the entry ran (issue 29: lists within 300 ms of sign-in). Vite links only static imports.
 */
function preloadDynamicImports(): Plugin {
  return {
    name: 'preload-dynamic-imports',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) =>
        (context.chunk?.dynamicImports ?? []).map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
          injectTo: 'head' as const,
        })),
    },
  };
}

/**
 * The page (src/web) bundled into dist/web, which the server serves at `/`. Everything the page needs is in
 * the bundle: no CDN, no web font, no request leaves the server's origin. Preact's automatic JSX runtime is
 * set here rather than through a plugin, so the build needs nothing but vite itself. `src/web/public` (the
 * favicon) is copied as is: `/favicon.svg` keeps one name across builds, as browsers and bookmarks expect.
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/web'),
  base: './',
  publicDir: path.resolve(import.meta.dirname, 'src/web/public'),
  logLevel: 'warn',
  plugins: [preloadDynamicImports()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
});
