// Bundles the pi agent process (src/daemon/providers/piAgentProcessMain.ts: the agent process, the pi provider,
// the pi SDK and the packages they import) into dist/node/agents/pi-agent.mjs and a few chunks. Unbundled, a
// pi agent process resolves, reads and compiles ~1,000 ES modules (683 of them typebox's) before it can open a
// session: 2.3–2.9 s of a first prompt on a stopped agent, on a 2-core machine. The daemon forks this bundle
// when it exists (src/daemon/providers/bundledPiAgent.ts) and the plain entry otherwise.
//
// Kept as each package wrote it, so the bundle behaves as node_modules does:
// - `import.meta.url` is the module's own file in node_modules, not the bundle's: pi finds its package.json,
//   themes and templates, and aliases `@mariozechner/pi-coding-agent` for extensions, from where it is installed;
// - what is not bundled (native and optional packages, jiti, cli-highlight) loads from node_modules when used;
// - a provider SDK pi imports on demand (OpenAI, Anthropic, …) stays a chunk of its own, loaded on demand.
// Changed, so that what an agent without extensions never uses loads at its first use:
// - `jiti/static` (jiti and its 1.5 MB Babel, which Node also scans for CommonJS exports) is jiti's own
//   CommonJS entry, required when the first extension loads; it requires Babel at the first TypeScript file;
// - `cli-highlight` (highlight.js registering ~190 languages, ~0.2 s) is required at the first code pi's theme
//   highlights (the terminal UI's, which an agent process never draws);
// - `loadPiSdk` imports, in a way the bundler sees, only the SDK names the pi provider reads (`sdk.X` in
//   src/daemon/providers/pi; the compiled daemon hides the import from TypeScript, see loadEsmPackage.ts), so
//   the bundler leaves out pi's CLI and terminal UI: 2.4 MB instead of 3.2, ~0.3 s and ~8 MB RSS less;
// - pi's extension loader imports every pi package as a namespace for Bun binaries only (`virtualModules`);
//   in Node it aliases them to node_modules, so the bundle drops those namespaces (they would pull the CLI in).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const LOAD_PI_SDK = path.join('src', 'daemon', 'providers', 'pi', 'loadPiSdk.ts');
const BUNDLED_LOAD_PI_SDK = `
export const PI_SDK_PACKAGE = '@mariozechner/pi-coding-agent';
let loading;
export const loadPiSdk = () => {
  loading ??= import('\0pi-sdk-used');
  loading.catch(() => (loading = undefined));
  return loading;
};
`;

const LAZY_JITI = `
import { createRequire } from 'node:module';
export const createJiti = (...args) => createRequire(import.meta.url)('jiti').createJiti(...args);
export default createJiti;
`;
const LAZY_CLI_HIGHLIGHT = `
import { createRequire } from 'node:module';
const load = () => createRequire(import.meta.url)('cli-highlight');
export const highlight = (...args) => load().highlight(...args);
export const supportsLanguage = (...args) => load().supportsLanguage(...args);
`;

/** The SDK's names the pi provider reads (`sdk.X` in src/daemon/providers/pi). */
function sdkNamesUsed(repo) {
  const folder = path.join(repo, 'src', 'daemon', 'providers', 'pi');
  const names = new Set();
  for (const file of readdirSync(folder)) {
    for (const match of readFileSync(path.join(folder, file), 'utf8').matchAll(/\bsdk\.(\w+)/g)) names.add(match[1]);
  }
  return [...names].sort();
}

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
        name: 'lazy-jiti',
        resolveId: (source) => (source === 'jiti/static' ? '\0lazy-jiti' : null),
        load: (id) => (id === '\0lazy-jiti' ? LAZY_JITI : null),
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
        name: 'pi-sdk-used',
        resolveId: (source) => (source === '\0pi-sdk-used' ? source : null),
        load: (id) => (id === '\0pi-sdk-used' ? `export { ${sdkNamesUsed(repo).join(', ')} } from '@mariozechner/pi-coding-agent';` : null),
      },
      {
        name: 'no-bun-virtual-modules',
        transform(code, id) {
          if (!id.endsWith(path.join('pi-coding-agent', 'dist', 'core', 'extensions', 'loader.js'))) return null;
          const out = code.replace(/^import \* as (_bundled\w+) from "[^"]+";$/gm, 'const $1 = {};');
          return { code: out, map: null };
        },
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
