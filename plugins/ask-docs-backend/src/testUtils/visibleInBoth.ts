import { Knex } from 'knex';
import { visibleChunks } from '../database/visibilityPredicate';
import { Visibility } from '../permissions/visibility';
import {
  AskDocsEntityAttributes,
  EntityCriteria,
  matchesEntityCriteria,
} from '../permissions/entityFilter';

/** An entity of a visibility test: its ref and the attributes the test sets. */
export type TestEntity = Partial<AskDocsEntityAttributes> & {
  entityRef: string;
};

/**
 * The refs whose chunks `visibility` shows in SQL, sorted, after checking that the in-memory
 * rule check (`apply`, with `criteria`) shows exactly the same of `entities`.
 */
export async function visibleInBoth(
  knex: Knex,
  visibility: Visibility,
  entities: readonly TestEntity[],
  criteria: EntityCriteria,
): Promise<string[]> {
  const rows = await visibleChunks(knex, visibility).distinct('c.entity_ref');
  const sql = rows.map((r: { entity_ref: string }) => r.entity_ref).sort();
  const inMemory = entities
    .filter(e =>
      matchesEntityCriteria(
        {
          kind: 'component',
          namespace: 'default',
          name: e.entityRef.split('/')[1],
          title: '',
          owners: [],
          tags: [],
          labels: {},
          annotations: {},
          spec: {},
          ...e,
        },
        criteria,
      ),
    )
    .map(e => e.entityRef)
    .sort();
  expect(inMemory).toEqual(sql);
  return sql;
}
