/*
 * The leak fuzz oracle: which corpus entities a principal may read, evaluated in plain
 * TypeScript on the catalog entities themselves (never on the product's rows, filters or SQL).
 * Semantics are the catalog's: strings compare after toLocaleLowerCase('en-US') (what the
 * catalog's search table and filters use), owners are the `ownedBy` relations, spec keys are
 * dotted paths with arrays searched element-wise. Anything the generator made malformed, and
 * every non-user principal or failing permission service, sees nothing (fail closed).
 */
import { Entity } from '@backstage/catalog-model';

const lc = (s: string) => s.toLocaleLowerCase('en-US');

export type Leaf = { rule: string; resourceType: string; params: any };
export type Criteria =
  | Leaf
  | { anyOf: Criteria[] }
  | { allOf: Criteria[] }
  | { not: Criteria };

/** A generated decision for one permission, with the generator's own verdict on its validity. */
export type OracleDecision =
  | { kind: 'ALLOW' }
  | { kind: 'DENY' }
  | { kind: 'CONDITIONAL'; criteria: Criteria }
  /** Anything the product must refuse: unknown rules, bad params, foreign decisions... */
  | { kind: 'MALFORMED'; why: string; wire: unknown };

export interface OraclePrincipal {
  type: 'user' | 'service';
  /** The permission service throws for this principal. */
  failing?: boolean;
}

function sameText(a: unknown, b: string): boolean {
  return typeof a === 'string' && lc(a) === lc(b);
}

/** Key/value lookup with case-insensitive keys and values. */
function keyValue(
  record: Record<string, string> | undefined,
  key: string,
  value?: string,
): boolean {
  return Object.entries(record ?? {}).some(
    ([k, v]) => sameText(k, key) && (value === undefined || sameText(v, value)),
  );
}

/**
 * Does `spec` have a scalar at the dotted `path` (with `value`, when given)? Arrays are
 * transparent, and a string item of an array also acts as a key whose value is "true".
 */
function specHas(node: unknown, segments: string[], value?: string): boolean {
  if (Array.isArray(node)) {
    if (
      segments.length === 1 &&
      node.some(item => sameText(item, segments[0]))
    ) {
      if (value === undefined || lc(value) === 'true') return true;
    }
    return node.some(item => specHas(item, segments, value));
  }
  if (segments.length === 0) {
    if (node !== null && typeof node === 'object') return false;
    if (value === undefined) return true;
    return (
      node !== null && node !== undefined && lc(String(node)) === lc(value)
    );
  }
  if (node === null || typeof node !== 'object') return false;
  return Object.entries(node as Record<string, unknown>).some(
    ([k, v]) =>
      lc(k) === lc(segments[0]) && specHas(v, segments.slice(1), value),
  );
}

function metadataHas(entity: Entity, key: string, value?: string): boolean {
  const m = entity.metadata;
  const k = lc(key);
  if (k === 'name' || k === 'namespace') {
    const actual = k === 'name' ? m.name : m.namespace ?? 'default';
    return value === undefined || sameText(actual, value);
  }
  if (k === 'tags') {
    return value === undefined
      ? (m.tags ?? []).length > 0
      : (m.tags ?? []).some(t => sameText(t, value));
  }
  for (const field of ['labels', 'annotations'] as const) {
    if (k.startsWith(`${field}.`))
      return keyValue(m[field], key.slice(field.length + 1), value);
  }
  throw new Error(`oracle: HAS_METADATA ${key} is generated as malformed only`);
}

function leafHolds(leaf: Leaf, entity: Entity): boolean {
  const p = leaf.params;
  const m = entity.metadata;
  switch (leaf.rule) {
    case 'IS_ENTITY_OWNER': {
      const owners = (entity.relations ?? [])
        .filter(r => r.type === 'ownedBy')
        .map(r => lc(r.targetRef));
      return p.claims.some((c: string) => owners.includes(lc(c)));
    }
    case 'IS_ENTITY_KIND':
      return p.kinds.some((k: string) => sameText(entity.kind, k));
    case 'IS_IN_NAMESPACE':
      return p.namespaces.some((n: string) =>
        sameText(m.namespace ?? 'default', n),
      );
    case 'HAS_TAG':
      return (m.tags ?? []).some(t => sameText(t, p.tag));
    case 'HAS_LABEL':
      return keyValue(m.labels, p.label, p.value);
    case 'HAS_ANNOTATION':
      return keyValue(m.annotations, p.annotation, p.value);
    case 'HAS_METADATA':
      return metadataHas(entity, p.key, p.value);
    case 'HAS_SPEC':
      return specHas(entity.spec ?? {}, p.key.split('.'), p.value);
    default:
      throw new Error(
        `oracle: rule ${leaf.rule} is generated as malformed only`,
      );
  }
}

export function criteriaHolds(c: Criteria, entity: Entity): boolean {
  if ('anyOf' in c) return c.anyOf.some(x => criteriaHolds(x, entity));
  if ('allOf' in c) return c.allOf.every(x => criteriaHolds(x, entity));
  if ('not' in c) return !criteriaHolds(c.not, entity);
  return leafHolds(c, entity);
}

/** Entity indexes the principal may read: both permissions must allow the entity. */
export function expectedVisible(
  principal: OraclePrincipal,
  decisions: { chunk: OracleDecision; catalog: OracleDecision },
  entities: Entity[],
): Set<number> {
  const none = new Set<number>();
  if (principal.type !== 'user' || principal.failing) return none;
  const both = [decisions.chunk, decisions.catalog];
  if (both.some(d => d.kind === 'DENY' || d.kind === 'MALFORMED')) return none;
  const allowed = (e: Entity) =>
    both.every(
      d =>
        d.kind === 'ALLOW' ||
        (d.kind === 'CONDITIONAL' && criteriaHolds(d.criteria, e)),
    );
  return new Set(entities.flatMap((e, i) => (allowed(e) ? [i] : [])));
}
