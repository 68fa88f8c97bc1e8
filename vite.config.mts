import { defineConfig } from 'vite';
import path from 'node:path';

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
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
});
