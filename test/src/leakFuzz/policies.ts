/*
 * Seeded policy generator for the leak fuzz: decisions for both permissions resolveVisibility
 * asks (ask-docs.chunk.read with the plugin's rules, catalog.entity.read with the catalog's),
 * nested anyOf/allOf/not up to depth 3, parameters drawn from the corpus with case noise, and
 * malformed decisions the product must refuse. Each decision carries the generator's verdict
 * (OracleDecision) and the wire form the permission fake sends (FakeDecision).
 */
import { Entity } from '@backstage/catalog-model';
import { seededRandom } from '../../../plugins/ask-docs-backend/src/testUtils/seededRandom';
import { FakeDecision } from '../permissionsFake';
import { Criteria, Leaf, OracleDecision } from './oracle';

export type Rng = ReturnType<typeof rng>;

export function rng(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const chance = (p: number) => next() < p;
  const some = <T>(xs: readonly T[], max = 3): T[] =>
    xs.filter(() => chance(0.4)).slice(0, max);
  return { next, int, pick, chance, some };
}

export type PermissionKind = 'chunk' | 'catalog';
const RESOURCE_TYPE: Record<PermissionKind, string> = {
  chunk: 'ask-docs-chunk',
  catalog: 'catalog-entity',
};

/** Values seen in the corpus (and some never seen), to draw parameters from. */
export interface Pools {
  kinds: string[];
  namespaces: string[];
  names: string[];
  owners: string[];
  tags: string[];
  labels: Array<[string, string]>;
  annotations: Array<[string, string]>;
  /** Dotted spec paths with a value found there. */
  spec: Array<[string, string]>;
}

function specPaths(node: unknown, path: string, out: Array<[string, string]>) {
  if (Array.isArray(node)) {
    for (const item of node) {
      specPaths(item, path, out);
      if (typeof item === 'string') out.push([`${path}.${item}`, 'true']);
    }
  } else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node))
      specPaths(v, path ? `${path}.${k}` : k, out);
  } else if (path) {
    out.push([path, String(node)]);
  }
}

export function poolsOf(entities: Entity[]): Pools {
  const uniq = <T>(xs: T[]) => [
    ...new Map(xs.map(x => [JSON.stringify(x), x])).values(),
  ];
  const spec: Array<[string, string]> = [];
  for (const e of entities) specPaths(e.spec ?? {}, '', spec);
  return {
    kinds: uniq([...entities.map(e => e.kind), 'Template', 'Group']),
    namespaces: uniq([
      ...entities.map(e => e.metadata.namespace ?? 'default'),
      'nowhere',
    ]),
    names: uniq(entities.map(e => e.metadata.name)),
    owners: uniq([
      ...entities.flatMap(e => (e.relations ?? []).map(r => r.targetRef)),
      'group:default/nobody',
    ]),
    tags: uniq([...entities.flatMap(e => e.metadata.tags ?? []), 'never-used']),
    labels: uniq([
      ...entities.flatMap(e => Object.entries(e.metadata.labels ?? {})),
      ['absent', 'x'],
    ]),
    annotations: uniq([
      ...entities.flatMap(e => Object.entries(e.metadata.annotations ?? {})),
      ['example.com/absent', 'y'],
    ]),
    spec: uniq(spec.filter(([k]) => !k.startsWith('notes'))),
  };
}

/** Case noise: as written, upper, lower, or without diacritics (another string to the catalog). */
function noisy(r: Rng, s: string): string {
  switch (r.int(6)) {
    case 0:
      return s.toLocaleUpperCase('en-US');
    case 1:
      return s.toLocaleLowerCase('en-US');
    case 2:
      return s.normalize('NFD').replace(/\p{M}/gu, '');
    default:
      return s;
  }
}

const leaf = (kind: PermissionKind, rule: string, params: unknown): Leaf => ({
  rule,
  resourceType: RESOURCE_TYPE[kind],
  params,
});

/** A valid leaf of `kind`'s rules; `claims` are the principal's ownership claims. */
function validLeaf(
  r: Rng,
  kind: PermissionKind,
  pools: Pools,
  claims: string[],
): Leaf {
  const withValue = (key: string, value: string, name: string) =>
    r.chance(0.4)
      ? { [name]: noisy(r, key) }
      : { [name]: noisy(r, key), value: noisy(r, value) };
  const common = [
    () =>
      leaf(kind, 'IS_ENTITY_OWNER', {
        claims: (r.chance(0.6) ? claims : r.some(pools.owners)).map(c =>
          noisy(r, c),
        ),
      }),
    () =>
      leaf(kind, 'IS_ENTITY_KIND', {
        kinds: r.some(pools.kinds).map(k => noisy(r, k)),
      }),
    () => {
      const [k, v] = r.pick(pools.labels);
      return leaf(kind, 'HAS_LABEL', withValue(k, v, 'label'));
    },
    () => {
      const [k, v] = r.pick(pools.annotations);
      return leaf(kind, 'HAS_ANNOTATION', withValue(k, v, 'annotation'));
    },
  ];
  const own =
    kind === 'chunk'
      ? [
          () =>
            leaf(kind, 'IS_IN_NAMESPACE', {
              namespaces: r.some(pools.namespaces).map(n => noisy(r, n)),
            }),
          () => leaf(kind, 'HAS_TAG', { tag: noisy(r, r.pick(pools.tags)) }),
        ]
      : [
          () => {
            const choices: Array<[string, string]> = [
              ['name', r.pick(pools.names)],
              ['namespace', r.pick(pools.namespaces)],
              ['tags', r.pick(pools.tags)],
              ...pools.labels.map(([k, v]): [string, string] => [
                `labels.${k}`,
                v,
              ]),
              ...pools.annotations.map(([k, v]): [string, string] => [
                `annotations.${k}`,
                v,
              ]),
            ];
            const [k, v] = r.pick(choices);
            return leaf(kind, 'HAS_METADATA', withValue(k, v, 'key'));
          },
          () => {
            const [k, v] = r.pick(pools.spec);
            return leaf(kind, 'HAS_SPEC', withValue(k, v, 'key'));
          },
        ];
  return r.pick([...common, ...own])();
}

/** Leaves the product must refuse (making the whole decision deny), with the reason. */
function malformedLeaf(r: Rng, kind: PermissionKind): [unknown, string] {
  const other: PermissionKind = kind === 'chunk' ? 'catalog' : 'chunk';
  const cases: Array<() => [unknown, string]> = [
    () => [leaf(kind, 'IS_FRIEND_OF', { who: 'x' }), 'unknown rule'],
    () => [
      leaf(
        kind,
        kind === 'chunk' ? 'HAS_SPEC' : 'HAS_TAG',
        kind === 'chunk' ? { key: 'type' } : { tag: 'public' },
      ),
      `a ${other} rule in a ${kind} decision`,
    ],
    () => [
      leaf(kind, 'HAS_LABEL', { label: 'tier', valeu: 'gold' }),
      'misspelt parameter',
    ],
    () => [leaf(kind, 'IS_ENTITY_OWNER', {}), 'missing parameter'],
    () => [
      leaf(kind, 'IS_ENTITY_OWNER', { claims: 'group:default/team-a' }),
      'claims not a list',
    ],
    () => [leaf(kind, 'HAS_LABEL', 'tier'), 'params not an object'],
    () => [
      leaf(kind, 'HAS_ANNOTATION', { annotation: '' }),
      'empty annotation',
    ],
    () => [
      {
        ...leaf(kind, 'HAS_LABEL', { label: 'tier' }),
        resourceType: RESOURCE_TYPE[other],
      },
      'foreign resource type on a leaf',
    ],
    () => [
      { ...leaf(kind, 'HAS_LABEL', { label: 'tier' }), sql: 'true' },
      'extra key on a leaf',
    ],
    () => [{ anyOf: [] }, 'empty anyOf'],
    () => [{ allOf: [] }, 'empty allOf'],
    () => [null, 'null node'],
    // The product refuses metadata it does not store with catalog semantics (documented).
    () => [
      leaf('catalog', 'HAS_METADATA', {
        key: r.pick(['title', 'description', 'uid']),
      }),
      'unsupported HAS_METADATA key',
    ],
  ];
  return r.pick(cases)();
}

/** anyOf or allOf over `children()`, or not of `child()`, with equal odds. */
export function randomOperator<T>(
  r: { int(n: number): number },
  children: () => T[],
  child: () => T,
) {
  switch (r.int(3)) {
    case 0:
      return { anyOf: children() };
    case 1:
      return { allOf: children() };
    default:
      return { not: child() };
  }
}

/** A criteria tree; when `poison` is set, one leaf somewhere in it is malformed. */
function tree(
  r: Rng,
  kind: PermissionKind,
  pools: Pools,
  claims: string[],
  depth: number,
  poison: { left: boolean; why?: string },
): any {
  if (depth >= 3 || r.chance(0.35)) {
    if (poison.left && r.chance(depth >= 2 ? 0.6 : 0.3)) {
      poison.left = false;
      const [node, why] = malformedLeaf(r, kind);
      poison.why = why;
      return node;
    }
    return validLeaf(r, kind, pools, claims);
  }
  const children = () =>
    Array.from({ length: 1 + r.int(3) }, () =>
      tree(r, kind, pools, claims, depth + 1, poison),
    );
  return randomOperator(r, children, () =>
    tree(r, kind, pools, claims, depth + 1, poison),
  );
}

export interface GeneratedDecision {
  oracle: OracleDecision;
  wire: FakeDecision;
}

/** One decision for `kind`: ALLOW, DENY, a conditional tree, or something malformed. */
export function generateDecision(
  r: Rng,
  kind: PermissionKind,
  pools: Pools,
  claims: string[],
): GeneratedDecision {
  const roll = r.next();
  if (roll < 0.16) return { oracle: { kind: 'ALLOW' }, wire: 'ALLOW' };
  if (roll < 0.2) return { oracle: { kind: 'DENY' }, wire: 'DENY' };
  if (roll < 0.28) {
    const wrong = r.int(5);
    if (wrong === 0)
      return malformed(`${kind}: result MAYBE`, {
        response: { result: 'MAYBE' },
      });
    if (wrong === 1) {
      const conditions = tree(r, kind, pools, claims, 0, { left: false });
      return malformed(`${kind}: decision for another plugin`, {
        conditions,
        pluginId: 'someone-else',
      });
    }
    if (wrong === 2) {
      const conditions = tree(r, kind, pools, claims, 0, { left: false });
      return malformed(`${kind}: decision for another resource type`, {
        conditions,
        resourceType: RESOURCE_TYPE[kind === 'chunk' ? 'catalog' : 'chunk'],
      });
    }
    // a poisoned tree: retry until the malformed leaf landed somewhere
    for (;;) {
      const poison = { left: true, why: undefined as string | undefined };
      const conditions = tree(r, kind, pools, claims, 0, poison);
      if (!poison.left)
        return malformed(`${kind}: ${poison.why}`, { conditions });
    }
  }
  const criteria = tree(r, kind, pools, claims, 0, { left: false }) as Criteria;
  return {
    oracle: { kind: 'CONDITIONAL', criteria },
    wire: { conditions: criteria },
  };
}

function malformed(why: string, wire: FakeDecision): GeneratedDecision {
  return { oracle: { kind: 'MALFORMED', why, wire }, wire };
}
