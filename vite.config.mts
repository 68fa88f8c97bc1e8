import { defineConfig, type Plugin } from 'vite';
import path from 'node:path';

/**
 * The stylesheet goes inside index.html as a `<style>`: a `<link>` is one more request the first paint and the
 * entry's run both wait for (a module script runs only once the styles before it have loaded), and
 * index.html is asked for anyway (issue 29: lists within 300 ms of sign-in). The page's policy allows inline
 * styles (`style-src 'self' 'unsafe-inline'`, servePage.ts). ~22 KB; a warm load revalidates it with the page.
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'inline-stylesheet',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (page?.type !== 'asset') return;
      let html = String(page.source);
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== 'asset' || !file.endsWith('.css')) continue;
        const link = new RegExp(`<link rel="stylesheet"[^>]*href="\\./${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
        if (!link.test(html)) continue;
        html = html.replace(link, () => `<style>${String(output.source).trim()}</style>`);
        delete bundle[file];
      }
      page.source = html;
    },
  };
}

/**
 * A `prefetch` link per chunk the entry loads later (the thread view, the forms, and what they import): the
 * browser fetches them at idle priority without running them, and the service worker (public/sw.js), which
 * keeps every asset index.html names, keeps them too, so the installed app opens a thread offline.
 */
function prefetchLaterChunks(): Plugin {
  return {
    name: 'prefetch-later-chunks',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { chunk, bundle }) => {
        if (!chunk || !bundle) return [];
        const chunkOf = (file: string) => {
          const output = bundle[file];
          return output?.type === 'chunk' ? output : undefined;
        };
        const closure = (start: string[], next: (file: string) => string[]) => {
          const seen = new Set<string>();
          const visit = (file: string) => void (seen.has(file) || (seen.add(file), next(file).forEach(visit)));
          start.forEach(visit);
          return seen;
        };
        const eager = closure([chunk.fileName], (file) => chunkOf(file)?.imports ?? []);
        const later = closure(chunk.dynamicImports, (file) => [
          ...(chunkOf(file)?.imports ?? []),
          ...(chunkOf(file)?.dynamicImports ?? []),
        ]);
        return [...later]
          .filter((file) => !eager.has(file))
          .map((file) => ({ tag: 'link', attrs: { rel: 'prefetch', crossorigin: true, href: `./${file}` }, injectTo: 'head' as const }));
      },
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
  plugins: [prefetchLaterChunks(), inlineStylesheet()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
});
