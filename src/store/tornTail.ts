import { promises as fs } from 'node:fs';

/**
 * nedb appends one JSON document per line; a crash mid-append leaves a partial last line. nedb refuses to
 * load a file with more than 10% corrupt lines, which a torn line in a small file exceeds, so drop it first.
 * Returns whether a line was dropped.
 */
export async function dropTornLastLine(filePath: string): Promise<boolean> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lastBreak = body.lastIndexOf('\n');
  const lastLine = body.slice(lastBreak + 1);
  if (lastLine.trim() === '' || parses(lastLine)) return false;
  await fs.writeFile(filePath, body.slice(0, lastBreak + 1));
  return true;
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
