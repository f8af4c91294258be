/**
 * The one case folding of visibility: entity attributes are folded with it when a row is written
 * and rule parameters when a predicate is compiled, so SQL compares folded strings and never
 * calls lower() (whose result depends on the database's collation and ctype: 'İ', 'ẞ', final
 * sigma). The catalog folds its search table the same way.
 */
export function foldCase(value: string): string {
  return value.toLocaleLowerCase('en-US');
}

/** Folded copies of the attributes that rules compare: the `*_key` columns of an entity row. */
export interface EntityMatchKeys {
  refKey: string;
  kindKey: string;
  namespaceKey: string;
  nameKey: string;
  ownerKeys: string[];
  tagKeys: string[];
  /** Folded key → folded string values (a key may hold non-string values: present, no values). */
  labelKeys: Record<string, string[]>;
  annotationKeys: Record<string, string[]>;
  /** Flattened spec path (see flattenSpec) → folded scalar values, null for null. */
  specKeys: Record<string, Array<string | null>>;
}

const unique = (values: string[]) => Array.from(new Set(values.map(foldCase)));

/**
 * A key → values dictionary without a prototype: keys are entity data, and a label named
 * `constructor` or `__proto__` must be a key like any other, never an inherited member.
 */
function dictionary<V>(): Record<string, V[]> {
  return Object.create(null);
}

/** Adds `value` under `key` once. */
function addValue<V>(out: Record<string, V[]>, key: string, value?: V) {
  const values = (out[key] ??= []);
  if (value !== undefined && !values.includes(value)) values.push(value);
}

function keyValues(
  record: Record<string, unknown> | undefined,
): Record<string, string[]> {
  const out = dictionary<string>();
  for (const [k, v] of Object.entries(record ?? {}))
    addValue(out, foldCase(k), typeof v === 'string' ? foldCase(v) : undefined);
  return out;
}

/**
 * The catalog's search flattening of `spec`: [folded dotted key, folded value or null] for every
 * scalar, array elements under the array's own path, plus `<path>.<string item>` = 'true'.
 */
export function flattenSpec(spec: unknown): Array<[string, string | null]> {
  const out: Array<[string, string | null]> = [];
  const visit = (path: string, current: unknown) => {
    if (current === null || current === undefined) {
      out.push([path, null]);
    } else if (['string', 'number', 'boolean'].includes(typeof current)) {
      out.push([path, foldCase(String(current))]);
    } else if (Array.isArray(current)) {
      for (const item of current) {
        visit(path, item);
        if (typeof item === 'string')
          out.push([`${path}.${foldCase(item)}`, 'true']);
      }
    } else if (typeof current === 'object') {
      for (const [k, v] of Object.entries(current as object))
        visit(`${path}.${foldCase(k)}`, v);
    }
  };
  visit('spec', spec);
  return out;
}

/** The attributes rules compare (AskDocsEntityAttributes and the store's EntityRow both fit). */
export interface FoldableAttributes {
  entityRef: string;
  kind: string;
  namespace: string;
  name: string;
  owners: string[];
  tags: string[];
  labels: Record<string, unknown>;
  annotations: Record<string, unknown>;
  spec: unknown;
}

export function entityMatchKeys(entity: FoldableAttributes): EntityMatchKeys {
  const specKeys = dictionary<string | null>();
  for (const [k, v] of flattenSpec(entity.spec ?? {})) addValue(specKeys, k, v);
  return {
    refKey: foldCase(entity.entityRef),
    kindKey: foldCase(entity.kind ?? ''),
    namespaceKey: foldCase(entity.namespace ?? ''),
    nameKey: foldCase(entity.name ?? ''),
    ownerKeys: unique(entity.owners ?? []),
    tagKeys: unique(entity.tags ?? []),
    labelKeys: keyValues(entity.labels),
    annotationKeys: keyValues(entity.annotations),
    specKeys,
  };
}
