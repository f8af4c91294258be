import {
  assertEntityFilter,
  EntityCriteria,
  EntityFilter,
  mapCriteria,
} from './entityFilter';

/** A parameterised SQL boolean expression over the `ask_docs_entities` alias below. */
export interface SqlPredicate {
  sql: string;
  bindings: unknown[];
}

/** Alias of `ask_docs_entities` inside the visibility subquery; compiled SQL refers to it. */
export const VISIBLE_ENTITY_ALIAS = 'ask_docs_vis_e';
const E = VISIBLE_ENTITY_ALIAS;

const lowerAll = (values: string[]) =>
  Array.from(new Set(values.map(v => v.toLowerCase())));

// Flattens `spec` the way the catalog's search table does (see flattenSpec in entityFilter.ts):
// one (lower-cased dotted key, jsonb value) row per scalar, arrays searched element-wise, and
// `<path>.<string item>` = true for arrays of strings. Non-object/array nodes have no children.
const FLAT_SPEC_CTE = `WITH RECURSIVE flat(k, v) AS (
    SELECT 'spec'::text, ${E}.spec
    UNION ALL
    SELECT s.k, s.v FROM flat AS f CROSS JOIN LATERAL (
      SELECT f.k || '.' || lower(o.key), o.value
        FROM jsonb_each(CASE WHEN jsonb_typeof(f.v) = 'object' THEN f.v ELSE '{}'::jsonb END) AS o
      UNION ALL
      SELECT f.k, a.value
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(f.v) = 'array' THEN f.v ELSE '[]'::jsonb END) AS a
      UNION ALL
      SELECT f.k || '.' || lower(a.value #>> '{}'), 'true'::jsonb
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(f.v) = 'array' THEN f.v ELSE '[]'::jsonb END) AS a
        WHERE jsonb_typeof(a.value) = 'string'
    ) AS s(k, v)
  )`;

function compileLeaf(filter: EntityFilter): SqlPredicate {
  switch (filter.type) {
    case 'oneOf': {
      const values = lowerAll(filter.values);
      if (values.length === 0) return { sql: 'false', bindings: [] };
      return {
        sql: `lower(${E}.${filter.field}) = ANY(?::text[])`,
        bindings: [values],
      };
    }
    case 'overlaps': {
      const values = lowerAll(filter.values);
      if (values.length === 0) return { sql: 'false', bindings: [] };
      return {
        sql: `EXISTS (SELECT 1 FROM unnest(${E}.${filter.field}) AS x(v) WHERE lower(x.v) = ANY(?::text[]))`,
        bindings: [values],
      };
    }
    case 'nonEmpty':
      return { sql: `cardinality(${E}.tags) > 0`, bindings: [] };
    case 'hasKey': {
      // CASE first, so a non-object jsonb value can never make jsonb_each_text raise.
      const column = `${E}.${filter.field}`;
      const valueTest =
        filter.value === undefined ? '' : ' AND lower(kv.value) = ?';
      const bindings: unknown[] = [filter.key.toLowerCase()];
      if (filter.value !== undefined) bindings.push(filter.value.toLowerCase());
      return {
        sql: `CASE WHEN jsonb_typeof(${column}) = 'object' THEN EXISTS (SELECT 1 FROM jsonb_each_text(${column}) AS kv WHERE lower(kv.key) = ?${valueTest}) ELSE false END`,
        bindings,
      };
    }
    case 'hasSpec': {
      const valueTest =
        filter.value === undefined ? '' : ` AND lower(flat.v #>> '{}') = ?`;
      const bindings: unknown[] = [`spec.${filter.path.toLowerCase()}`];
      if (filter.value !== undefined) bindings.push(filter.value.toLowerCase());
      return {
        sql: `EXISTS (${FLAT_SPEC_CTE} SELECT 1 FROM flat WHERE flat.k = ? AND jsonb_typeof(flat.v) NOT IN ('object', 'array')${valueTest})`,
        bindings,
      };
    }
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
