import { boundedDamerauLevenshtein } from './typo';

describe('boundedDamerauLevenshtein', () => {
  it.each([
    ['ledger', 'ledger', 0],
    ['ledgr', 'ledger', 1], // insertion
    ['ledgeer', 'ledger', 1], // deletion
    ['ledjer', 'ledger', 1], // substitution
    ['legder', 'ledger', 1], // adjacent transposition counts once
    ['kubernetse', 'kubernetes', 1],
    ['kuberentes', 'kubernetes', 1],
    ['kbernets', 'kubernetes', 2],
    ['straße', 'strasse', 2],
    ['café', 'cafe', 1],
  ])('%s → %s = %d', (a, b, d) => {
    expect(boundedDamerauLevenshtein(a, b, 3)).toBe(d);
    expect(boundedDamerauLevenshtein(b, a, 3)).toBe(d);
  });

  it('stops at the bound', () => {
    expect(boundedDamerauLevenshtein('payments', 'pipeline', 1)).toBe(2);
    expect(boundedDamerauLevenshtein('a', 'abcdef', 2)).toBe(3);
    expect(boundedDamerauLevenshtein('abc', 'xyz', 2)).toBe(3);
  });
});
