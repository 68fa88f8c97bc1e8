import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Every file under `folder` but `.git`: its kind, mode bits and bytes (or link target), by path. */
export function filesOf(folder: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(path.join(folder, prefix)).sort()) {
    if (name === '.git') continue;
    const rel = path.join(prefix, name);
    const stat = lstatSync(path.join(folder, rel));
    if (stat.isDirectory()) Object.assign(out, filesOf(folder, rel));
    else if (stat.isSymbolicLink()) out[rel] = `link -> ${readlinkSync(path.join(folder, rel))}`;
    else out[rel] = `${(stat.mode & 0o777).toString(8)} ${readFileSync(path.join(folder, rel)).toString('base64')}`;
  }
  return out;
}
