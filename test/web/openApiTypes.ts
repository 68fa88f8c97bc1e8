import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';
import { configWith } from '../../src/config/serverConfig';
import { startServer } from '../../src/server/startServer';

/** The page's typed client reads its paths from this file (generated, committed, checked by a test). */
export const OPENAPI_TYPES_FILE = path.resolve(__dirname, '..', '..', 'src', 'web', 'api', 'openapi.d.ts');

const HEADER = `// Generated from GET /api/v1/openapi.json by \`npm run gen:web-api\` (openapi-typescript): do not edit.
// test/web/openApiTypes.test.ts fails when the routes' schemas changed and this file was not regenerated.
`;

/** Types of every route as the server documents it, from a real server's `GET /api/v1/openapi.json`. */
export async function generateOpenApiTypes(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-openapi-'));
  const server = await startServer({ config: configWith({ port: 0, token: 'openapi-token-0123456789abcdef', dataDir }), log: () => {} });
  try {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const types = HEADER + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
    // Formatted as the repository formats everything, so a Prettier run over the tree leaves it as it is.
    return prettier.format(types, { ...(await prettier.resolveConfig(OPENAPI_TYPES_FILE)), filepath: OPENAPI_TYPES_FILE });
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
