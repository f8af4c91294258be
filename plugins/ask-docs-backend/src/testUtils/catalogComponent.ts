import {
  Entity,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import type { EntitySource } from '../ingestion/sources';

/** The ownedBy relation the catalog resolves from spec.owner: the only owner visibility reads. */
export function ownedByRelations(owner: unknown, namespace: string) {
  if (typeof owner !== 'string' || !owner) return [];
  const targetRef = stringifyEntityRef(
    parseEntityRef(owner, {
      defaultKind: 'group',
      defaultNamespace: namespace,
    }),
  );
  return [{ type: 'ownedBy', targetRef }];
}

/** A processed catalog Component in the default namespace (owner also as its ownedBy relation). */
export function catalogComponent(
  name: string,
  options: {
    owner: string;
    type: string;
    title?: string;
    description?: string;
    tags?: string[];
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  },
): Entity {
  const { owner, type, ...metadata } = options;
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, namespace: 'default', etag: `etag-${name}`, ...metadata },
    spec: { type, lifecycle: 'production', owner },
    relations: ownedByRelations(owner, 'default'),
  };
}

/** A catalog of one documentation Component with a TechDocs site (served under its name). */
export function oneSiteCatalog(name: string): EntitySource {
  return {
    async *listEntities() {
      yield catalogComponent(name, {
        owner: 'group:default/docs',
        type: 'documentation',
        annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
      });
    },
  };
}
