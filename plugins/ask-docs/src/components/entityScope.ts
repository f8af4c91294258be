import { stringifyEntityRef } from '@backstage/catalog-model';
import type { CompoundEntityRef, Entity } from '@backstage/catalog-model';
import type { AskScope } from '@askdocs/plugin-ask-docs-common';

/**
 * The scope that limits retrieval to one entity's documents. Entity refs compare
 * case-insensitively and the index stores them lower-cased, so the ref is lower-cased here.
 */
export function entityScope(entity: Entity | CompoundEntityRef): AskScope {
  return {
    entityRefs: [stringifyEntityRef(entity).toLocaleLowerCase('en-US')],
  };
}
