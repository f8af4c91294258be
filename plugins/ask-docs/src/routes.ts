import {
  createExternalRouteRef,
  createRouteRef,
} from '@backstage/core-plugin-api';

export const rootRouteRef = createRouteRef({ id: 'ask-docs' });

/**
 * The TechDocs reader of one entity, for citation links. Optional: unbound, links keep the
 * backend's `/docs/...` path. The new frontend system binds it to the TechDocs plugin itself.
 */
export const techdocsReaderRouteRef = createExternalRouteRef({
  id: 'ask-docs:techdocs-reader',
  params: ['namespace', 'kind', 'name'],
  optional: true,
  defaultTarget: 'techdocs.docRoot',
});
