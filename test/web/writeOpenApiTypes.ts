import { writeFileSync } from 'node:fs';
import { generateOpenApiTypes, OPENAPI_TYPES_FILE } from './openApiTypes';

/** `npm run gen:web-api`: regenerates src/web/api/openapi.d.ts after a route's schema changed. */
generateOpenApiTypes().then(
  (types) => {
    writeFileSync(OPENAPI_TYPES_FILE, types);
    console.log(`wrote ${OPENAPI_TYPES_FILE}`);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
