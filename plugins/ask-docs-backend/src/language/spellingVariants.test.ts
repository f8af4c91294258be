import { americanSpelling, isSpellingVariant } from './spellingVariants';

describe('British and American spellings', () => {
  it.each([
    ['minimise', 'minimize'],
    ['parallelised', 'parallelized'],
    ['organisation', 'organization'],
    ['analyse', 'analyze'],
    ['colours', 'colors'],
    ['behaviour', 'behavior'],
    ['greyed', 'grayed'],
    ['travelled', 'traveled'],
    ['labelling', 'labeling'],
    ['centre', 'center'],
    ['metres', 'meters'],
    ['catalogue', 'catalog'],
    ['licence', 'license'],
    ['fibres', 'fibers'],
    ['programme', 'program'],
    ['judgement', 'judgment'],
    ['practised', 'practiced'],
    ['focussing', 'focusing'],
    ['artefacts', 'artifacts'],
    ['counsellor', 'counselor'],
    ['sceptical', 'skeptical'],
    ['verse', 'verze'],
    ['diskusi', 'diskuzi'],
    ['kursu', 'kurzu'],
  ])('%s is %s', (british, american) => {
    expect(americanSpelling(british)).toBe(americanSpelling(american));
    expect(isSpellingVariant(british, american)).toBe(true);
    expect(isSpellingVariant(american, british)).toBe(true);
    expect(isSpellingVariant(american.toUpperCase(), british)).toBe(true);
  });

  it.each([
    ['cable', 'table'],
    ['filled', 'filed'],
    ['four', 'for'],
    ['hour', 'hor'],
    ['rise', 'rize'],
    ['advise', 'advice'],
    ['fence', 'fense'],
    ['science', 'sciense'],
    ['spelled', 'speled'],
    ['minimize', 'minimize'],
    ['scouring', 'scoring'],
    ['scoured', 'scored'],
    ['outre', 'outer'],
    ['gramme', 'gram'],
    ['practise', 'practical'],
  ])('%s is not a spelling of %s', (a, b) => {
    expect(isSpellingVariant(a, b)).toBe(false);
  });
});
