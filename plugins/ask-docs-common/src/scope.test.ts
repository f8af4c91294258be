import { normalizeScopeRef } from './scope';

describe('normalizeScopeRef', () => {
  it('reads a ref as the catalog does: the default namespace filled in, case as typed', () => {
    expect(normalizeScopeRef('component:payments')).toBe(
      'component:default/payments',
    );
    expect(normalizeScopeRef('Component:Ops/Payments')).toBe(
      'Component:Ops/Payments',
    );
  });

  it('names no entity without a kind, or for what is not a ref', () => {
    for (const ref of [
      'payments',
      'default/payments',
      '',
      ':x',
      'k:',
      'k:n/',
    ]) {
      expect(normalizeScopeRef(ref)).toBeUndefined();
    }
  });
});
