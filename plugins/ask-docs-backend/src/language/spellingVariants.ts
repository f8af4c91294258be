/**
 * British and American spellings of one English word ("minimise" / "minimize", "colour" /
 * "color"). Typo correction leaves dictionary words alone ("cable" is no misspelt "table"), but
 * a word the docs spell the other way is still the asker's word.
 */

// Each rule rewrites a British ending to the American one; the look-behinds keep short words
// out ("rise", "hour", "scour", "filled" and "called" are no variants of anything).
const RULES: ReadonlyArray<[RegExp, string]> = [
  [/^grey/, 'gray'],
  // Before the -ise rule: the verb "practise" is "practice", not "practize".
  [/^practis(e|es|ed|ing)$/u, 'practic$1'],
  [/(?<=\p{L}{3})is(e|es|ed|ing|er|ers|ation|ations)$/u, 'iz$1'],
  [/(?<=\p{L}{2})ys(e|es|ed|ing|er|ers)$/u, 'yz$1'],
  [/(?<=\p{L}{3})our(s|ed|ing|ite|ites|able|er|ers)?$/u, 'or$1'],
  [/(?<=\p{L}{3}[ae])ll(ed|ing|er|ers|or|ors)$/u, 'l$1'],
  [/(?<=\p{L}{2})(?<!ou)tre(s|d)?$/u, 'ter$1'],
  [/(?<=\p{L}{2})bre(s)?$/u, 'ber$1'],
  [/(?<=\p{L}{3})ogue(s)?$/u, 'og$1'],
  [/(?<=^(?:lic|def|off|pret))ence(s|d)?$/u, 'ense$1'],
  [/(?<=\p{L}{4})mme(s)?$/u, 'm$1'],
  [/dgement(s)?$/u, 'dgment$1'],
  [/^focuss(ed|es|ing)$/u, 'focus$1'],
  [/^artefact/u, 'artifact'],
  [/^sceptic/u, 'skeptic'],
  [/^odour/u, 'odor'],
  // Czech writes both "verse" and "verze", "diskuse" and "diskuze", "kurs" and "kurz".
  [/(?<=^(?:ver|disku|konver|univer|kur|analý))s/u, 'z'],
];

/** The word with British endings spelt the American way (lowercase in, lowercase out). */
export function americanSpelling(word: string): string {
  let spelt = word;
  for (const [ending, american] of RULES)
    spelt = spelt.replace(ending, american);
  return spelt;
}

/** True when two different words are one word's British and American spellings. */
export function isSpellingVariant(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x !== y && americanSpelling(x) === americanSpelling(y);
}
