import { expect } from 'chai';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: the web page from its build folder', function () {
  this.timeout(30_000);
  let t: TestServer;
  let webDir: string;
  const INDEX = '<!doctype html><script type="module" src="./assets/index-AbC123.js"></script>';

  before(async () => {
    webDir = await tempDir('ats-web-dist-');
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), INDEX);
    await writeFile(path.join(webDir, 'assets', 'index-AbC123.js'), 'console.log("page")');
    await writeFile(path.join(webDir, 'assets', 'index-AbC123.css'), 'body{}');
    await writeFile(path.join(webDir, 'assets', 'index-AbC123.js.map'), '{}');
    await writeFile(path.join(webDir, 'favicon.svg'), '<svg/>');
    await writeFile(path.join(path.dirname(webDir), `${path.basename(webDir)}-secret.txt`), 'outside');
    t = await startTestServer({ config: { webDir } });
  });
  after(async () => {
    await t?.close();
    await rm(path.join(path.dirname(webDir), `${path.basename(webDir)}-secret.txt`), { force: true });
  });
  const tempDir = suiteTempDirs(); // below the after hooks above: the folders go once the server stopped

  const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${t.server.url}${pathname}`, { headers });

  it('serves index.html at / without a token, revalidated on every load, with a strict content policy', async () => {
    const response = await get('/');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    expect(response.headers.get('content-security-policy')).to.contain("default-src 'self'");
    expect(await response.text()).to.equal(INDEX);
    // fetch adds `cache-control: no-cache` to a conditional request unless told otherwise, as a reload would.
    const again = await get('/', { 'if-none-match': response.headers.get('etag')!, 'cache-control': 'max-age=0' });
    expect(again.status).to.equal(304);
  });

  it('serves hashed assets with their content types, cached as immutable, also below a deep link', async () => {
    for (const [file, type] of [
      ['index-AbC123.js', /^(text|application)\/javascript/],
      ['index-AbC123.css', /^text\/css/],
      ['index-AbC123.js.map', /^application\/json/],
    ] as const) {
      const response = await get(`/assets/${file}`);
      expect(response.status, file).to.equal(200);
      expect(response.headers.get('content-type'), file).to.match(type);
      expect(response.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    }
    // The build links assets relatively, so a page opened at /threads/thr_1 asks for /threads/assets/….
    expect(await (await get('/threads/assets/index-AbC123.js')).text()).to.equal('console.log("page")');
    const icon = await get('/favicon.svg');
    expect(icon.headers.get('content-type')).to.match(/^image\/svg\+xml/);
  });

  it('answers the page for any other path outside /api (the page routes itself), 404 for a missing file', async () => {
    for (const deep of ['/threads/thr_1', '/projects', '/some/deep/path']) {
      const response = await get(deep);
      expect(response.status, deep).to.equal(200);
      expect(await response.text()).to.equal(INDEX);
    }
    expect((await get('/assets/index-gone.js')).status).to.equal(404);
    expect((await get('/missing.png')).status).to.equal(404);
    const api = await get('/api/v1/nothing-here');
    expect(api.status).to.equal(401); // /api stays the API, never the page
    expect((await t.api('/nothing-here')).status).to.equal(404);
  });

  it('never serves a file outside the build folder', async () => {
    const outside = `${path.basename(webDir)}-secret.txt`;
    for (const attempt of [`/../${outside}`, `/%2e%2e/${outside}`, `/assets/..%2f..%2f${outside}`, `/assets/%2e%2e`]) {
      const response = await get(attempt);
      expect(await response.text(), attempt).to.not.equal('outside');
    }
    expect((await get('/%E0%A4%A')).status).to.equal(400);
  });

  it('says the page is not built (503) when the build folder lacks index.html, while the API works', async () => {
    await rm(path.join(webDir, 'index.html'));
    try {
      const html = await get('/', { accept: 'text/html' });
      expect(html.status).to.equal(503);
      expect(await html.text()).to.contain('npm run build:web');
      const json = await get('/threads/x', { accept: 'application/json' });
      expect(json.status).to.equal(503);
      expect(((await json.json()) as any).code).to.equal('web_page_not_built');
      expect((await t.api('/hosts')).status).to.equal(200);
    } finally {
      await writeFile(path.join(webDir, 'index.html'), INDEX);
    }
  });
});
