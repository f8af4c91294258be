import { PermissionCriteria } from '@backstage/plugin-permission-common';
import { JsonValue } from '@backstage/types';
import {
  entityMatchKeys,
  EntityMatchKeys,
  foldCase,
  FoldableAttributes,
} from './matchKeys';

export { flattenSpec } from './matchKeys';

/**
 * The visibility attributes of a chunk's source entity: the columns of `ask_docs_entities`.
 * This is the resource that `ask-docs-chunk` permission rules are evaluated against.
 */
export interface AskDocsEntityAttributes extends FoldableAttributes {
  title: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  spec: { [key: string]: JsonValue | undefined };
}

/**
 * One leaf of the visibility filter: a serialisable test on `ask_docs_entities` columns.
 * Permission rules (ours and the translated catalog rules) produce these, never SQL.
 *
 * All string comparisons are case-insensitive, like the catalog's own permission filters
 * (which match against its lower-cased search table), through one folding (matchKeys.ts).
 */
export type EntityFilter =
  /** `kind`, `namespace` or `name` equals one of the values. */
  | { type: 'oneOf'; field: 'kind' | 'namespace' | 'name'; values: string[] }
  /** The `owners` or `tags` array shares at least one value. */
  | { type: 'overlaps'; field: 'owners' | 'tags'; values: string[] }
  /** The `tags` array is not empty (catalog `HAS_METADATA { key: 'tags' }`). */
  | { type: 'nonEmpty'; field: 'tags' }
  /** The `labels` or `annotations` object has the key (and, when given, that value). */
  | {
      type: 'hasKey';
      field: 'labels' | 'annotations';
      key: string;
      value?: string;
    }
  /**
   * A dotted path into `spec` matches, with the catalog's flattening semantics: arrays are
   * searched element-wise, and an array of strings also yields `<path>.<item>` = "true".
   */
  | { type: 'hasSpec'; path: string; value?: string }
  /** Matches every entity (e.g. catalog `HAS_METADATA { key: 'name' }` without a value). */
  | { type: 'always' };

/** A filter tree: leaves combined with the permission framework's anyOf / allOf / not. */
export type EntityCriteria = PermissionCriteria<EntityFilter>;

/** Thrown for anything that cannot be turned into a filter; callers deny everything. */
export class InvalidVisibilityCriteriaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidVisibilityCriteriaError';
  }
}

/** Deeper trees than this are treated as malformed rather than walked. */
export const MAX_CRITERIA_DEPTH = 32;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(v => typeof v === 'string');
}

function fail(message: string): never {
  throw new InvalidVisibilityCriteriaError(message);
}

/**
 * The parameters of each leaf type: the values its `field` may take (none: it has no field),
 * its string-list and non-empty string parameters, and whether it takes an optional `value`.
 */
interface LeafShape {
  fields?: readonly string[];
  lists?: readonly string[];
  strings?: readonly string[];
  optionalValue?: boolean;
}

// A Map, not an object: a leaf's `type` must never find an inherited property.
const LEAF_SHAPES = new Map<unknown, LeafShape>([
  ['oneOf', { fields: ['kind', 'namespace', 'name'], lists: ['values'] }],
  ['overlaps', { fields: ['owners', 'tags'], lists: ['values'] }],
  ['nonEmpty', { fields: ['tags'] }],
  [
    'hasKey',
    {
      fields: ['labels', 'annotations'],
      strings: ['key'],
      optionalValue: true,
    },
  ],
  ['hasSpec', { strings: ['path'], optionalValue: true }],
  ['always', {}],
]);

/** Validates a single leaf; anything not exactly one of the known shapes is rejected. */
export function assertEntityFilter(
  value: unknown,
): asserts value is EntityFilter {
  if (!isPlainObject(value)) fail('filter leaf is not an object');
  const shape = LEAF_SHAPES.get(value.type);
  if (!shape) fail(`unknown filter type ${JSON.stringify(value.type)}`);
  const { fields, lists = [], strings = [], optionalValue = false } = shape;
  const type = value.type as string;
  const keys = Object.keys(value);
  const required = ['type', ...(fields ? ['field'] : []), ...lists, ...strings];
  const allowed = (k: string) =>
    required.includes(k) || (optionalValue && k === 'value');
  if (!keys.every(allowed) || !required.every(k => keys.includes(k)))
    fail(`${type}: unexpected keys`);
  if (fields && !fields.includes(value.field as string))
    fail(`${type}: bad field`);
  for (const k of lists)
    if (!isStringArray(value[k])) fail(`${type}: ${k} must be strings`);
  for (const k of strings)
    if (typeof value[k] !== 'string' || value[k] === '')
      fail(`${type}: ${k} must be a string`);
  if (keys.includes('value') && typeof value.value !== 'string')
    fail(`${type}: value must be a string`);
}

/**
 * Walks a criteria tree, rejecting malformed nodes. An empty anyOf or allOf is rejected rather
 * than given a meaning: an empty allOf would conventionally be `true` and silently allow
 * everything, and an empty anyOf is almost certainly a bug in a policy.
 */
export function mapCriteria<TOut>(
  criteria: unknown,
  leaf: (value: unknown) => PermissionCriteria<TOut>,
  depth = 0,
): PermissionCriteria<TOut> {
  if (depth > MAX_CRITERIA_DEPTH) fail('criteria nested too deeply');
  if (!isPlainObject(criteria)) fail('criteria node is not an object');
  for (const op of ['anyOf', 'allOf'] as const) {
    if (op in criteria) {
      if (Object.keys(criteria).length !== 1) fail(`${op} node has extra keys`);
      const children = criteria[op];
      if (!Array.isArray(children) || children.length === 0)
        fail(`${op} must be a non-empty array`);
      const mapped = children.map(c => mapCriteria<TOut>(c, leaf, depth + 1));
      return (
        op === 'anyOf' ? { anyOf: mapped } : { allOf: mapped }
      ) as PermissionCriteria<TOut>;
    }
  }
  if ('not' in criteria) {
    if (Object.keys(criteria).length !== 1) fail('not node has extra keys');
    return { not: mapCriteria<TOut>(criteria.not, leaf, depth + 1) };
  }
  return leaf(criteria);
}

/** Validates a whole filter tree (e.g. what a rule's toQuery returned). */
export function assertEntityCriteria(
  criteria: unknown,
): asserts criteria is EntityCriteria {
  mapCriteria<EntityFilter>(criteria, value => {
    assertEntityFilter(value);
    return value;
  });
}

/** In-memory evaluation over the same folded keys the SQL compiler compares (rules' `apply`). */
export function matchesEntityFilter(
  entity: AskDocsEntityAttributes,
  filter: EntityFilter,
): boolean {
  return matchesKeys(entityMatchKeys(entity), filter);
}

/** The folded key is present (and, when a value is given, holds that folded value). */
function hasValue(
  record: Record<string, Array<string | null>>,
  key: string,
  value: string | undefined,
): boolean {
  if (!Object.prototype.hasOwnProperty.call(record, key)) return false;
  return value === undefined || record[key].includes(foldCase(value));
}

function matchesKeys(keys: EntityMatchKeys, filter: EntityFilter): boolean {
  switch (filter.type) {
    case 'oneOf': {
      const actual = keys[`${filter.field}Key`];
      return filter.values.some(v => foldCase(v) === actual);
    }
    case 'overlaps': {
      const actual = new Set(
        filter.field === 'owners' ? keys.ownerKeys : keys.tagKeys,
      );
      return filter.values.some(v => actual.has(foldCase(v)));
    }
    case 'nonEmpty':
      return keys.tagKeys.length > 0;
    case 'hasKey': {
      const record =
        filter.field === 'labels' ? keys.labelKeys : keys.annotationKeys;
      return hasValue(record, foldCase(filter.key), filter.value);
    }
    case 'hasSpec':
      return hasValue(
        keys.specKeys,
        `spec.${foldCase(filter.path)}`,
        filter.value,
      );
    case 'always':
      return true;
    default:
      return false;
  }
}

export function matchesEntityCriteria(
  entity: AskDocsEntityAttributes,
  criteria: EntityCriteria,
): boolean {
  // Empty groups match nothing, as in the SQL compiler (see mapCriteria).
  if ('anyOf' in criteria)
    return criteria.anyOf.some(c => matchesEntityCriteria(entity, c));
  if ('allOf' in criteria) {
    return (
      criteria.allOf.length > 0 &&
      criteria.allOf.every(c => matchesEntityCriteria(entity, c))
    );
  }
  if ('not' in criteria) return !matchesEntityCriteria(entity, criteria.not);
  return matchesEntityFilter(entity, criteria);
}
