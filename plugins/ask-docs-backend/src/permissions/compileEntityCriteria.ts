import {
  assertEntityFilter,
  EntityCriteria,
  EntityFilter,
  mapCriteria,
} from './entityFilter';
import { foldCase } from './matchKeys';

/** A parameterised SQL boolean expression over the `ask_docs_entities` alias below. */
export interface SqlPredicate {
  sql: string;
  bindings: unknown[];
}

/** Alias of `ask_docs_entities` inside the visibility subquery; compiled SQL refers to it. */
export const VISIBLE_ENTITY_ALIAS = 'ask_docs_vis_e';
const E = VISIBLE_ENTITY_ALIAS;

const foldAll = (values: string[]) => Array.from(new Set(values.map(foldCase)));

const KEY_COLUMNS = {
  kind: 'kind_key',
  namespace: 'namespace_key',
  name: 'name_key',
  owners: 'owner_keys',
  tags: 'tag_keys',
  labels: 'label_keys',
  annotations: 'annotation_keys',
} as const;

/**
 * `<column> -> key` is present (and holds the value). The columns hold attributes folded at
 * write time (matchKeys.ts) and the parameters are folded here the same way, so no lower() runs
 * in SQL: the database's collation cannot make the two sides disagree.
 */
function keyedValue(
  column: string,
  key: string,
  value: string | undefined,
): SqlPredicate {
  if (value === undefined) {
    return { sql: `(${E}.${column} -> ?::text) IS NOT NULL`, bindings: [key] };
  }
  return {
    sql: `(${E}.${column} -> ?::text) @> jsonb_build_array(?::text)`,
    bindings: [key, foldCase(value)],
  };
}

function compileLeaf(filter: EntityFilter): SqlPredicate {
  switch (filter.type) {
    case 'oneOf': {
      const values = foldAll(filter.values);
      if (values.length === 0) return { sql: 'false', bindings: [] };
      return {
        sql: `${E}.${KEY_COLUMNS[filter.field]} = ANY(?::text[])`,
        bindings: [values],
      };
    }
    case 'overlaps': {
      const values = foldAll(filter.values);
      if (values.length === 0) return { sql: 'false', bindings: [] };
      return {
        sql: `${E}.${KEY_COLUMNS[filter.field]} && ?::text[]`,
        bindings: [values],
      };
    }
    case 'nonEmpty':
      return { sql: `cardinality(${E}.tag_keys) > 0`, bindings: [] };
    case 'hasKey':
      return keyedValue(
        KEY_COLUMNS[filter.field],
        foldCase(filter.key),
        filter.value,
      );
    case 'hasSpec':
      // spec_keys is the catalog's flattening of spec (flattenSpec), computed at write time.
      return keyedValue(
        'spec_keys',
        `spec.${foldCase(filter.path)}`,
        filter.value,
      );
    case 'always':
      return { sql: 'true', bindings: [] };
    default:
      // Unreachable after validation; kept so a new leaf type cannot compile to "allow".
      throw new Error(`unknown filter ${JSON.stringify(filter)}`);
  }
}

function join(parts: SqlPredicate[], operator: 'AND' | 'OR'): SqlPredicate {
  return {
    sql: `(${parts.map(p => p.sql).join(` ${operator} `)})`,
    bindings: parts.flatMap(p => p.bindings),
  };
}

/**
 * Compiles a filter tree to one SQL boolean expression. Each leaf is NULL-safe (COALESCE to
 * false) so that NOT never turns an unknown into a match. Malformed trees throw.
 */
export function compileEntityCriteria(criteria: EntityCriteria): SqlPredicate {
  // Validate first (non-empty groups, known leaves), then compile the validated tree.
  const validated = mapCriteria<EntityFilter>(criteria, value => {
    assertEntityFilter(value);
    return value;
  });
  const walk = (node: EntityCriteria): SqlPredicate => {
    if ('anyOf' in node) return join(node.anyOf.map(walk), 'OR');
    if ('allOf' in node) return join(node.allOf.map(walk), 'AND');
    if ('not' in node) {
      const inner = walk(node.not);
      return { sql: `(NOT ${inner.sql})`, bindings: inner.bindings };
    }
    const leaf = compileLeaf(node);
    return { sql: `COALESCE((${leaf.sql}), false)`, bindings: leaf.bindings };
  };
  return walk(validated);
}
