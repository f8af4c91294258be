/*
 * Development portal: a real Backstage backend with catalog, TechDocs (local publisher),
 * permissions, search and Ask the docs.
 */
import { createBackend } from '@backstage/backend-defaults';

const backend = createBackend();

// Added in this order; the dev permission policy goes with the permission backend.
const features = [
  import('@backstage/plugin-app-backend'),
  import('@backstage/plugin-auth-backend'),
  import('@backstage/plugin-auth-backend-module-guest-provider'),
  import('@backstage/plugin-catalog-backend'),
  import('@backstage/plugin-techdocs-backend'),
  import('@backstage/plugin-permission-backend'),
  import('./devPermissionPolicy'),
  import('@backstage/plugin-search-backend'),
  import('@backstage/plugin-search-backend-module-pg'),
  import('@backstage/plugin-search-backend-module-catalog'),
  import('@backstage/plugin-search-backend-module-techdocs'),
  import('@askdocs/plugin-ask-docs-backend'),
];
for (const feature of features) backend.add(feature);

backend.start();
