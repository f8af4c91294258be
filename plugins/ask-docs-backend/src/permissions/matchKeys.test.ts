/*
 * Label, annotation and spec keys are entity data, and the catalog accepts keys such as
 * `constructor` or `toString`: folding them into match keys must not meet Object.prototype
 * (a throw there failed the whole visibility sync, and every `apply` of the entity).
 */
import { entityColumns } from '../database/entityColumns';
import { AskDocsEntityAttributes, matchesEntityCriteria } from './entityFilter';
import { entityMatchKeys } from './matchKeys';
import { askDocsChunkRuleDefinitions } from './rules';

// JSON.parse, as the catalog client does: `__proto__` is then an own key, not the prototype.
const annotations = JSON.parse(
  '{"Constructor": "Z", "toString": "x", "__proto__": "p", "hasOwnProperty": "h"}',
);
const entity: AskDocsEntityAttributes = {
  entityRef: 'component:default/odd-keys',
  kind: 'Component',
  namespace: 'default',
  name: 'odd-keys',
  title: 'odd-keys',
  owners: [],
  tags: [],
  labels: { constructor: 'y' },
  annotations,
  spec: { constructor: 'c', valueOf: ['v'] },
};
const plain: AskDocsEntityAttributes = {
  ...entity,
  labels: {},
  annotations: {},
  spec: {},
};

const sorted = (record: Record<string, unknown>) =>
  Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1));

describe('match keys of keys named like Object.prototype members', () => {
  it('are own keys holding the folded values', () => {
    const keys = entityMatchKeys(entity);
    expect(sorted(keys.labelKeys)).toEqual([['constructor', ['y']]]);
    expect(sorted(keys.annotationKeys)).toEqual([
      ['__proto__', ['p']],
      ['constructor', ['z']],
      ['hasownproperty', ['h']],
      ['tostring', ['x']],
    ]);
    expect(sorted(keys.specKeys)).toEqual([
      ['spec.constructor', ['c']],
      ['spec.valueof', ['v']],
      ['spec.valueof.v', ['true']],
    ]);
  });

  it('are written to the key columns as they are', () => {
    const columns = entityColumns({ ...entity, etag: 'e' });
    expect(sorted(JSON.parse(columns.annotation_keys))).toEqual(
      sorted(entityMatchKeys(entity).annotationKeys),
    );
    expect(JSON.parse(columns.label_keys)).toEqual({ constructor: ['y'] });
  });

  it('match the rules that name them, and only on entities that have them', () => {
    const matches = (
      e: AskDocsEntityAttributes,
      rule: string,
      params: object,
    ) =>
      matchesEntityCriteria(
        e,
        askDocsChunkRuleDefinitions.get(rule)!.toFilter(params),
      );
    for (const [rule, params] of [
      ['HAS_LABEL', { label: 'constructor', value: 'Y' }],
      ['HAS_ANNOTATION', { annotation: 'constructor' }],
      ['HAS_ANNOTATION', { annotation: 'toString', value: 'x' }],
      ['HAS_ANNOTATION', { annotation: '__proto__', value: 'p' }],
    ] as const) {
      expect([rule, params, matches(entity, rule, params)]).toEqual([
        rule,
        params,
        true,
      ]);
      expect([rule, params, matches(plain, rule, params)]).toEqual([
        rule,
        params,
        false,
      ]);
    }
  });
});
