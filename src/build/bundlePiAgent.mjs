// Bundles the pi agent process (src/daemon/providers/piAgentProcessMain.ts: the agent process, the pi provider,
// the pi SDK and the packages they import) into dist/node/agents/pi-agent.mjs and a few chunks. Unbundled, a
// pi agent process resolves, reads and compiles ~1,000 ES modules (683 of them typebox's) before it can open a
// session: 2.3–2.9 s of a first prompt on a stopped agent, on a 2-core machine. The daemon forks this bundle
// when it exists (src/daemon/providers/bundledPiAgent.ts) and the plain entry otherwise.
//
// Kept as each package wrote it, so the bundle behaves as node_modules does:
// - `import.meta.url` is the module's own file in node_modules, not the bundle's: pi finds its package.json,
//   themes and templates, and aliases `@mariozechner/pi-coding-agent` for extensions, from where it is installed;
// - what is not bundled (native and optional packages, jiti and its Babel) loads from node_modules when used;
// - a provider SDK pi imports on demand (OpenAI, Anthropic, …) stays a chunk of its own, loaded on demand.
// Changed: `jiti/static` is `jiti`, the same loader with Babel (2 MB) required at the first TypeScript
// extension instead of at start; `cli-highlight` (highlight.js registering ~190 languages, ~0.2 s) is
// required at the first code pi's theme highlights (the terminal UI's, which an agent process never draws); `loadPiSdk` imports the SDK the bundler can see (in the compiled daemon
// it hides the import from TypeScript's CommonJS output, see src/daemon/providers/loadEsmPackage.ts).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const LOAD_PI_SDK = path.join('src', 'daemon', 'providers', 'pi', 'loadPiSdk.ts');
const BUNDLED_LOAD_PI_SDK = `
export const PI_SDK_PACKAGE = '@mariozechner/pi-coding-agent';
let loading;
export const loadPiSdk = () => {
  loading ??= import('@mariozechner/pi-coding-agent');
  loading.catch(() => (loading = undefined));
  return loading;
};
`;

const LAZY_CLI_HIGHLIGHT = `
import { createRequire } from 'node:module';
const load = () => createRequire(import.meta.url)('cli-highlight');
export const highlight = (...args) => load().highlight(...args);
export const supportsLanguage = (...args) => load().supportsLanguage(...args);
`;

/** Builds the bundle into `<repo>/dist/node/agents`; resolves false when the bundler is not installed. */
async function bundlePiAgent(repo) {
  const outDir = path.join(repo, 'dist', 'node', 'agents');
  rmSync(outDir, { recursive: true, force: true });
  let rolldown;
  try {
    rolldown = await import('rolldown'); // vite's bundler: absent from an install without dev dependencies
  } catch {
    return false;
  }
  await rolldown.build({
    cwd: repo,
    input: { 'pi-agent': path.join(repo, 'src', 'daemon', 'providers', 'piAgentProcessMain.ts') },
    platform: 'node',
    logLevel: 'silent',
    // Native or optional: loaded from node_modules, by the code that needs them, when it needs them.
    external: [/^@silvia-odwyer\//, /^@mariozechner\/clipboard/, /^@opentelemetry\//, /^koffi$/],
    plugins: [
      {
        name: 'lazy-babel-jiti',
        resolveId: (source) => (source === 'jiti/static' || source === 'jiti' ? { id: 'jiti', external: true } : null),
      },
      {
        name: 'lazy-cli-highlight',
        resolveId: (source) => (source === 'cli-highlight' ? '\0lazy-cli-highlight' : null),
        load: (id) => (id === '\0lazy-cli-highlight' ? LAZY_CLI_HIGHLIGHT : null),
      },
      {
        name: 'bundled-load-pi-sdk',
        load: (id) => (id === path.join(repo, LOAD_PI_SDK) ? BUNDLED_LOAD_PI_SDK : null),
      },
      {
        name: 'own-import-meta-url',
        transform(code, id) {
          if (!id.includes(`${path.sep}node_modules${path.sep}`) || !code.includes('import.meta.url')) return null;
          return { code: code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href)), map: null };
        },
      },
    ],
    output: { dir: outDir, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
  });
  return true;
}

// Run by ensureBuilt.mjs after the server's tsc: exit code 0 with the bundle, 2 without a bundler, 1 on failure.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
bundlePiAgent(repo).then(
  (built) => process.exit(built ? 0 : 2),
  (error) => {
    rmSync(path.join(repo, 'dist', 'node', 'agents'), { recursive: true, force: true });
    process.stderr.write(`the pi agent bundle could not be built (agents load the SDK unbundled): ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
