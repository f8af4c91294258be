import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import type { CompoundEntityRef, Entity } from '@backstage/catalog-model';
import { normalizeScopeRef } from '@askdocs/plugin-ask-docs-common';
import type { AskScope } from '@askdocs/plugin-ask-docs-common';
import {
  TECHDOCS_ANNOTATION,
  TECHDOCS_EXTERNAL_ANNOTATION,
} from '@backstage/plugin-techdocs-common';

/**
 * Whether the entity has docs to ask about, as the TechDocs plugin decides whether to show its
 * Docs tab: its own, or another entity's it names. A user's or a group's page has none.
 */
export function hasTechDocs(entity: Entity): boolean {
  const annotations = entity.metadata.annotations ?? {};
  return Boolean(
    annotations[TECHDOCS_ANNOTATION] ||
      annotations[TECHDOCS_EXTERNAL_ANNOTATION],
  );
}

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
 * A stored answer's scope, to ask follow-ups in: only its refs the backend reads as entity refs
 * (one stored by an API caller before refs were checked may name none, and would be a 400);
 * undefined when none is left, as for an answer across all docs.
 */
export function followUpScope(scope?: AskScope): AskScope | undefined {
  const refs = (scope?.entityRefs ?? []).flatMap(
    ref => normalizeScopeRef(ref) ?? [],
  );
  return refs.length ? { ...scope, entityRefs: refs } : undefined;
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
