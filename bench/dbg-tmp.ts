import { mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { parcelTreeWatcher } from '../src/paths/cache/parcelTreeWatcher';
import { writeTree } from '../test/helpers/tempTree';
async function main() {
  const root = mkdtempSync('/tmp/dbgw-');
  writeTree(root, {
      src: { 'index.ts': '', 'app.ts': '', util: { 'strings.ts': '', deep: { 'leaf.ts': '' } } },
      docs: { 'guide.md': '', linked: { symlink: '../src/util' } },
      'README.md': '',
      '.git': { HEAD: '' },
      node_modules: { pkg: { 'index.js': '' } },
    });
  const w = await parcelTreeWatcher(root, { changed: (p) => console.log('changed', p), lost: (r) => console.log('lost', r) }, { ignore: [root + '/node_modules', root + '/.git'] });
  mkdirSync(root + '/src/node_modules/pkg', { recursive: true });
  writeFileSync(root + '/src/node_modules/pkg/index.js', '');
  await new Promise((r) => setTimeout(r, 500));
  await w.close();
  require('fs').rmSync(root, { recursive: true });
}
void main();
