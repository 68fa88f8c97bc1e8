import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { buildPathsBenchTree } from './lib/pathsBenchTree';
import { createPathLister } from '../src/daemon/pathLister';
const root = '/tmp/paths-prof-tree';
async function main() {
  if (!existsSync(root)) { mkdirSync(root); buildPathsBenchTree(root); }
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', 'fdfind', '-H', '-I', '.', root], { stdio: ['ignore', 'ignore', 'pipe'] });
    const fd = performance.now() - t;
    const [u, s] = r.stderr.toString().trim().split(/\s+/).map(Number);
    const lister = createPathLister({ watcher: null });
    const cpu = process.cpuUsage();
    t = performance.now();
    await lister.listPaths({ path: root, limit: 100 });
    const first = performance.now() - t;
    const used = process.cpuUsage(cpu);
    console.log(`fd wall ${fd.toFixed(0)} cpu ${((u! + s!) * 1000).toFixed(0)} | first wall ${first.toFixed(0)} cpu ${((used.user + used.system) / 1000).toFixed(0)} (user ${(used.user/1000).toFixed(0)} sys ${(used.system/1000).toFixed(0)})`);
    await lister.listPaths({ path: root, limit: 1 });
  }
  process.exit(0);
}
void main();
