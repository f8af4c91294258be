import {
  createExternalRouteRef,
  createRouteRef,
} from '@backstage/core-plugin-api';

export const rootRouteRef = createRouteRef({ id: 'ask-docs' });

/**
 * The TechDocs reader of one entity, for citation links. Both frontend systems bind it to the
 * TechDocs plugin's reader by default; unbound (no TechDocs plugin), links keep the backend's
 * `/docs/...` path.
 */
export const techdocsReaderRouteRef = createExternalRouteRef({
  id: 'ask-docs:techdocs-reader',
  params: ['namespace', 'kind', 'name'],
  optional: true,
  defaultTarget: 'techdocs.docRoot',
});
