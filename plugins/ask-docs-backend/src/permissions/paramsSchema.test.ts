import { objectParams, parseParams } from './paramsSchema';

describe('objectParams', () => {
  const schema = objectParams<{ claims: string[] }>({
    claims: { type: 'string[]', description: 'claims' },
  });

  it('accepts exactly its fields', () => {
    expect(parseParams(schema, { claims: ['a'] }, 'R')).toEqual({
      claims: ['a'],
    });
  });

  // Names inherited from Object.prototype are no parameters of the rule either.
  it.each([
    { claims: [], constructor: 'x' },
    { claims: [], toString: 'x' },
    { claims: [], hasOwnProperty: 'x' },
    JSON.parse('{"claims": [], "__proto__": "x"}'),
  ])('rejects unexpected parameter %j', params => {
    const [unexpected] = Object.keys(params).filter(k => k !== 'claims');
    expect(() => parseParams(schema, params, 'R')).toThrow(
      `invalid params for rule R: unexpected parameter '${unexpected}'`,
    );
  });
});
