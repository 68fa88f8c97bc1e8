import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { generateOpenApiTypes, OPENAPI_TYPES_FILE } from './openApiTypes';

/**
 * The page's client is typed by the server's own OpenAPI document (issue 15: one typed client for the page
 * and for external users). When a route's schema changes, the committed types must follow.
 */
describe("the page's API types are the server's OpenAPI document", function () {
  this.timeout(60_000);

  it('src/web/api/openapi.d.ts is what GET /api/v1/openapi.json generates today (else: npm run gen:web-api)', async () => {
    const generated = await generateOpenApiTypes();
    expect(readFileSync(OPENAPI_TYPES_FILE, 'utf8') === generated, 'src/web/api/openapi.d.ts is stale: run `npm run gen:web-api`').to.equal(
      true,
    );
  });
});
