import {
  assertEntityFilter,
  InvalidVisibilityCriteriaError,
} from './entityFilter';

/*
 * The filter leaves come from permission decisions, so the validator is the gate: every known
 * shape passes exactly, and anything else (an extra key, a wrong field, a wrong value type) is
 * refused with InvalidVisibilityCriteriaError, which makes the caller deny everything.
 */
describe('assertEntityFilter', () => {
  it.each([
    { type: 'oneOf', field: 'kind', values: ['component'] },
    { type: 'oneOf', field: 'namespace', values: [] },
    { type: 'oneOf', field: 'name', values: ['a', 'b'] },
    { type: 'overlaps', field: 'owners', values: ['group:default/x'] },
    { type: 'overlaps', field: 'tags', values: ['public'] },
    { type: 'nonEmpty', field: 'tags' },
    { type: 'hasKey', field: 'labels', key: 'tier' },
    { type: 'hasKey', field: 'annotations', key: 'a', value: '' },
    { type: 'hasSpec', path: 'lifecycle' },
    { type: 'hasSpec', path: 'deploy.region', value: 'eu' },
    { type: 'always' },
  ])('accepts %j', leaf => {
    expect(() => assertEntityFilter(leaf)).not.toThrow();
  });

  it.each<[unknown, RegExp]>([
    [null, /not an object/],
    [['always'], /not an object/],
    [{ type: 'anything' }, /unknown filter type "anything"/],
    [{ type: 'constructor' }, /unknown filter type "constructor"/],
    [{ type: '__proto__' }, /unknown filter type "__proto__"/],
    [{ field: 'kind', values: [] }, /unknown filter type undefined/],
    [{ type: 'oneOf', field: 'owners', values: [] }, /oneOf: bad field/],
    [{ type: 'oneOf', field: 'kind', values: [1] }, /oneOf: values must/],
    [{ type: 'oneOf', field: 'kind' }, /oneOf: unexpected keys/],
    [{ type: 'oneOf', field: 'kind', values: [], x: 1 }, /oneOf: unexpected/],
    [{ type: 'overlaps', field: 'kind', values: [] }, /overlaps: bad field/],
    [{ type: 'overlaps', field: 'tags', values: 'x' }, /overlaps: values/],
    [{ type: 'nonEmpty', field: 'owners' }, /nonEmpty: bad field/],
    [{ type: 'nonEmpty', field: 'tags', values: [] }, /nonEmpty: unexpected/],
    [{ type: 'hasKey', field: 'spec', key: 'a' }, /hasKey: bad field/],
    [{ type: 'hasKey', field: 'labels', key: '' }, /hasKey: key must/],
    [{ type: 'hasKey', field: 'labels', key: 1 }, /hasKey: key must/],
    [{ type: 'hasKey', field: 'labels' }, /hasKey: unexpected keys/],
    [
      { type: 'hasKey', field: 'labels', key: 'a', value: 1 },
      /hasKey: value must/,
    ],
    [
      { type: 'hasKey', field: 'labels', key: 'a', valeu: 'x' },
      /hasKey: unexpected keys/,
    ],
    [{ type: 'hasSpec', path: '' }, /hasSpec: path must/],
    [{ type: 'hasSpec', path: 'a', value: null }, /hasSpec: value must/],
    [{ type: 'hasSpec', path: 'a', field: 'x' }, /hasSpec: unexpected keys/],
    [{ type: 'hasSpec' }, /hasSpec: unexpected keys/],
    [{ type: 'always', field: 'tags' }, /always: unexpected keys/],
  ])('refuses %j', (leaf, message) => {
    expect(() => assertEntityFilter(leaf)).toThrow(
      InvalidVisibilityCriteriaError,
    );
    expect(() => assertEntityFilter(leaf)).toThrow(message);
  });
});
