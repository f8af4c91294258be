import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import type { CompoundEntityRef, Entity } from '@backstage/catalog-model';
import type { AskScope } from '@askdocs/plugin-ask-docs-common';

/** Names the entity whose TechDocs an entity's Docs tab shows (its pages are indexed there). */
const TECHDOCS_EXTERNAL_ANNOTATION = 'backstage.io/techdocs-entity';

/**
 * The scope that limits retrieval to one entity's documents: its own, and those of the entity
 * its `backstage.io/techdocs-entity` annotation names. Entity refs compare case-insensitively
 * and the index stores them lower-cased, so the refs are lower-cased here.
 */
export function entityScope(entity: Entity | CompoundEntityRef): AskScope {
  const refs = [stringifyEntityRef(entity)];
  const external = externalDocsRef(entity);
  if (external) refs.push(external);
  const lower = refs.map(ref => ref.toLocaleLowerCase('en-US'));
  return { entityRefs: [...new Set(lower)] };
}

/**
 * Parsed as the TechDocs plugin does for the Docs tab (no defaults: the namespace is 'default',
 * a ref without kind is ignored), so the scope names the entity whose pages the tab shows.
 */
function externalDocsRef(entity: Entity | CompoundEntityRef) {
  if (!('metadata' in entity)) return undefined;
  const value = entity.metadata.annotations?.[TECHDOCS_EXTERNAL_ANNOTATION];
  if (!value) return undefined;
  try {
    return stringifyEntityRef(parseEntityRef(value));
  } catch {
    return undefined;
  }
}
