/**
 * The import rules of src/ and pipelines/ (README "Working on the code"). `npm test` runs them, so a change
 * that bends the one-way descent fails CI with the rule's name. Type-only imports count too: a reader
 * follows them the same way.
 *
 *   cli → server, config, daemon → ingest → pipelines → operators, notifications → turns → store, protocol
 *                 (server: routers → threads, roots, eventPages, openApi, sse, hosts, intake, daemonLink, http)   paths, files, link, registry
 *   daemon/remote (the remote daemon's link client, outbox, remote store) is reached from the CLI only; link/ is what both ends share.
 */
const layer = (name, from, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: '^(src|pipelines)/', pathNot: [from, ...allowed] },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No file imports itself through others.', severity: 'error', from: {}, to: { circular: true } },
    layer('protocol-is-the-floor', '^src/protocol/', [], 'Wire shapes and the host-daemon contract import nothing of ours.'),
    layer('store-below-pipelines', '^src/store/', ['^src/protocol/'], 'The store port and adapters know rows, not stages.'),
    layer('registry-is-storage', '^src/registry/', ['^src/protocol/', '^src/store/'], 'Projects, hosts, environments, threads.'),
    layer('files-are-leaf-commands', '^src/files/', ['^src/protocol/'], 'File reads and browse: host commands.'),
    layer('paths-walk', '^src/paths/walk/', ['^src/protocol/'], 'The walk knows nothing of scoring.'),
    layer('paths-score', '^src/paths/score/', ['^src/paths/walk/'], 'The scorer reads walked entries.'),
    layer('paths-rank-cache', '^src/paths/(rank|cache)/', ['^src/paths/(walk|score)/', '^src/protocol/'], 'Stages and the per-root cache.'),
    layer('turns-are-pure-rules', '^src/turns/', ['^src/protocol/', '^src/store/'], 'E1–E7 as a pure reducer.'),
    layer('operators-are-stages', '^src/operators/', ['^src/turns/', '^src/protocol/', '^src/store/'], 'The four stages.'),
    layer(
      'notifications-are-stages',
      '^src/notifications/',
      ['^src/protocol/', '^src/store/'],
      'The webhook stages: stored rows in, POSTs out through an injected sender.',
    ),
    layer(
      'pipelines-order-stages',
      '^pipelines/',
      ['^src/operators/', '^src/notifications/', '^src/turns/', '^src/protocol/', '^src/store/', '^src/paths/(walk|rank)/'],
      'Stages only.',
    ),
    layer(
      'ingest-runs-the-pipeline',
      '^src/ingest/',
      ['^pipelines/', '^src/operators/', '^src/turns/', '^src/protocol/', '^src/store/'],
      'One long-lived pipeline.',
    ),
    layer(
      'link-is-shared-transport',
      '^src/link/',
      ['^src/protocol/'],
      'What both ends of a link share (RPC peer, frame writer, heartbeat): never the daemon, the server or the store.',
    ),
    layer(
      'daemon-below-server',
      '^src/daemon/',
      ['^src/(ingest|link|files|paths|protocol|store)/', '^pipelines/'],
      'The daemon never reaches the server or its config.',
    ),
    {
      name: 'daemon-remote-is-the-daemon-cli-only',
      comment:
        'The remote daemon (its link client, outbox, remote event store) is started by the CLI: the server, the embedded daemon and the layers below never import it.',
      severity: 'error',
      from: { path: '^(src|pipelines)/', pathNot: ['^src/daemon/remote/', '^src/cli/'] },
      to: { path: '^src/daemon/remote/' },
    },
    layer(
      'agent-providers-see-their-port',
      '^src/daemon/providers/[^/]+/',
      ['^src/daemon/providers/[^/]+\\.ts$', '^src/protocol/'],
      'A provider is a plug-in.',
    ),
    layer(
      'config-reads-settings',
      '^src/config/',
      ['^src/daemon/providerFactories\\.ts$', '^src/link/', '^src/protocol/'],
      'Flags and env into settings.',
    ),
    {
      name: 'server-root-is-composition',
      comment: 'createApp, startServer and the token are assembled from the subfolders, never imported by them.',
      severity: 'error',
      from: { path: '^src/server/[^/]+/' },
      to: { path: '^src/server/[^/]+\\.ts$' },
    },
    {
      name: 'routers-are-the-server-top',
      comment: 'Only the composition root mounts routers: what they call (threads, roots, http, …) never imports them.',
      severity: 'error',
      from: { path: '^src/server/[^/]+/', pathNot: '^src/server/routers/' },
      to: { path: '^src/server/routers/' },
    },
    {
      name: 'routers-hold-no-helpers',
      comment: 'One router file per resource: a router imports no other file of routers/ but AppDeps (helpers live by concept).',
      severity: 'error',
      from: { path: '^src/server/routers/' },
      to: { path: '^src/server/routers/', pathNot: '^src/server/routers/appDeps\\.ts$' },
    },
    layer('server-http-is-plumbing', '^src/server/http/', ['^src/registry/', '^src/protocol/'], 'Problems, auth, bodies, upgrades.'),
    layer(
      'web-page-reads-protocol-types',
      '^src/web/',
      ['^src/protocol/threadEvents\\.ts$', '^src/protocol/jsonTextScan\\.ts$'],
      'The page (bundled for the browser) shares wire types, and the JSON text scanner it reads a diff arriving in parts with.',
    ),
    layer(
      'server-below-cli',
      '^src/server/',
      ['^src/(config|daemon|ingest|link|files|paths|protocol|registry|store|notifications)/', '^pipelines/'],
      'Nothing of the server imports a CLI.',
    ),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
