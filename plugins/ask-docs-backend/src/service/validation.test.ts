import { InputError } from '@backstage/errors';
import { parseAskRequest, parseFeedback, parseLimit } from './validation';

describe('parseLimit', () => {
  it('takes the default and integers within the spec’s bounds', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('100')).toBe(100);
    expect(parseLimit(5)).toBe(5);
  });

  // What reaches it unvalidated on HEAD: a NaN limit would make knex drop the LIMIT.
  it.each([
    ['abc'],
    [''],
    ['0'],
    ['101'],
    ['2.5'],
    ['1e1'],
    [' 5'],
    [NaN],
    [['1', '2']],
  ])('refuses %p with an InputError', value => {
    expect(() => parseLimit(value)).toThrow(InputError);
  });
});

describe('scope entity refs', () => {
  const scoped = (...entityRefs: string[]) =>
    parseAskRequest({ question: 'Roll back?', scope: { entityRefs } }, 200)
      .scope?.entityRefs;

  it('are read as the catalog reads them, in the default namespace unless named', () => {
    expect(
      scoped('component:payments', 'Component:Ops/Ledger', 'api:default/x'),
    ).toEqual([
      'component:default/payments',
      'Component:Ops/Ledger',
      'api:default/x',
    ]);
    expect(
      parseAskRequest({ question: 'Roll back?', scope: {} }, 200).scope,
    ).toEqual({});
  });

  it.each([
    'payments',
    'default/payments',
    'component:',
    'component:default/',
    ':x',
  ])('refuse %p with a 400 naming the expected form', ref => {
    expect(() => scoped('component:default/ok', ref)).toThrow(InputError);
    expect(() => scoped(ref)).toThrow(/expected kind:namespace\/name/);
  });
});

describe('NUL characters, which Postgres cannot store', () => {
  it.each([
    ['the question', { question: 'How\u0000 do I roll back?' }],
    ['the thread id', { question: 'Roll back?', threadId: 'a\u0000' }],
    [
      'an entity ref',
      { question: 'Roll back?', scope: { entityRefs: ['x', 'y\u0000'] } },
    ],
  ])('are refused in %s before any work', (_name, body) => {
    expect(() => parseAskRequest(body, 200)).toThrow(InputError);
    expect(() => parseAskRequest(body, 200)).toThrow(
      /NUL character \(U\+0000\)/,
    );
  });

  it('are refused in a feedback comment', () => {
    expect(() => parseFeedback({ rating: 'up', comment: 'ok\u0000' })).toThrow(
      InputError,
    );
    expect(parseFeedback({ rating: 'up', comment: 'ok' })).toEqual({
      rating: 'up',
      comment: 'ok',
    });
  });
});

describe('lone surrogates, which Postgres cannot store in jsonb', () => {
  it.each([
    ['the question', { question: 'Roll back \ud800?' }],
    [
      'an entity ref',
      { question: 'Roll back?', scope: { entityRefs: ['component:a\udc00'] } },
    ],
  ])('are refused in %s before any work', (_name, body) => {
    expect(() => parseAskRequest(body, 200)).toThrow(/lone UTF-16 surrogate/);
  });

  it('are refused in a feedback comment, while paired ones are text', () => {
    expect(() => parseFeedback({ rating: 'up', comment: 'ok \udc00' })).toThrow(
      InputError,
    );
    expect(parseAskRequest({ question: 'Roll back 😀?' }, 200).question).toBe(
      'Roll back 😀?',
    );
  });
});
