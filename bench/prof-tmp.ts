import { createPathLister } from '../src/daemon/pathLister';
const root = '/tmp/paths-prof-tree';
async function main() {
  for (let i = 0; i < 4; i++) {
    const lister = createPathLister({ watcher: null });
    const t = performance.now();
    await lister.listPaths({ path: root, limit: 100 });
    console.log('first', (performance.now() - t).toFixed(0));
    await lister.listPaths({ path: root, limit: 1 });
  }
  process.exit(0);
}
void main();
