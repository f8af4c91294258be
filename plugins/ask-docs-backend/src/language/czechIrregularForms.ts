/**
 * Czech forms whose lemma the Debian hunspell dictionary does not give: it lists them as
 * words of their own (stem("psa") is "psa"), typically suppletive plurals, stems with a
 * mobile vowel or a vowel change, and comparatives. Our own list of common words; each form
 * maps to all its lemmas (list the form itself when it is also a word in its own right).
 */

// "lemmas: forms", one group a line (a long group continues on a line of its own).
const GROUPS = `
pes: psa psovi psu psem psi psů psům psy psech pse
den: dne dni dnem dní dnů dnům dnech dnové dny
den dno dna: dnu
týden: týdne týdnu týdnem týdny týdnů týdnům týdnech
člověk: člověka člověku člověkem člověče lidé lidí lidem lidmi lidech
člověk lid: lidi
oko: oči očí očím očima očích
ucho: uši uší uším ušima uších
dítě: dítěte dítěti dítětem děti dětí dětem dětmi dětech
ruka: ruce rukou rukama rukách
noha: nohou nohama nohách
dům: domu domě domem domy domů domům domech
stůl: stolu stole stolem stoly stolů stolům stolech
kůň: koně koni koněm koní koním koňmi koních
přítel: přítele příteli přítelem přátelé přátel přátelům přáteli přátelích
rok: léta letech
rok let: let
být: jsem jsi jsme jste jsou byl byla bylo byli byly
být: budu budeš bude budeme budete budou buď buďte není nejsou jest
být on: je
jít: jdu jdeš jde jdeme jdete jdou šel šla šlo šli šly půjdu půjde půjdou
chtít: chci chceš chce chceme chcete chtějí chtěl chtěla chtěli
mít: mám máš má máme máte mají měl měla mělo měli měly
vědět: vím víš ví víme víte vědí
dobrý: lepší nejlepší
špatný: horší nejhorší
velký: větší největší
malý: menší nejmenší
dobře: lépe líp nejlépe
špatně: hůře hůř nejhůře
mnoho: více víc nejvíce nejvíc
málo: méně míň nejméně
já: mě mne mně mnou
ty: tebe tobě tebou
my: nás nám námi
vy: vás vám vámi
`;

const TABLE: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const line of GROUPS.split('\n')) {
    const [lemmaPart, formPart] = line.split(':');
    if (!formPart) continue;
    const lemmas = lemmaPart.trim().split(/\s+/);
    for (const form of formPart.trim().split(/\s+/)) {
      map.set(form, [...new Set([...(map.get(form) ?? []), ...lemmas])]);
    }
  }
  return map;
})();

/**
 * Verbs of the irregular classes, with any prefix: hunspell-cs files their present tense under
 * a present form ("najde" → najdu, "přepíše" → přepíšu) and their past under the participle
 * ("našel", "převedl", "poslal"), never under the infinitive that questions and headings use
 * ("Jak najít …", "Převést na cestu"). Each entry: the ending of such a lemma and the
 * infinitive endings it may stand for (prefixed "psát" loses its length: napíšu → napsat).
 */
const VERB_CLASSES: ReadonlyArray<[string, string[]]> = [
  ['jdu', ['jít']],
  ['jde', ['jít']],
  ['šel', ['jít']],
  ['vedu', ['vést']],
  ['vedl', ['vést']],
  ['jedu', ['jet']],
  ['jel', ['jet']],
  ['píšu', ['psát', 'psat']],
  ['píši', ['psát', 'psat']],
  ['psal', ['psát', 'psat']],
  ['šlu', ['slat']],
  ['slal', ['slat']],
  ['vezmu', ['vzít']],
  ['vzal', ['vzít']],
  ['jmu', ['jmout']],
  ['jal', ['jmout']],
  ['jmul', ['jmout']],
];

/** Lemmas that only look like one of the classes: forms of the nouns pojem and dojem. */
const NOT_VERB_CLASS = new Set(['pojmu', 'dojmu']);

/**
 * The infinitive a hunspell lemma of an irregular-class verb stands for ("najdu" → najít,
 * "převedl" → převést), or undefined. Only an infinitive the dictionary has as a lemma is
 * returned, so "kašel" never becomes "kajít".
 */
export function czechIrregularVerb(
  lemma: string,
  isLemma: (word: string) => boolean,
): string | undefined {
  if (NOT_VERB_CLASS.has(lemma)) return undefined;
  for (const [ending, infinitives] of VERB_CLASSES) {
    if (!lemma.endsWith(ending)) continue;
    const prefix = lemma.slice(0, -ending.length);
    const found = infinitives
      .map(infinitive => prefix + infinitive)
      .find(candidate => candidate !== lemma && isLemma(candidate));
    if (found) return found;
  }
  return undefined;
}

/** Lemmas of an irregular Czech form (lowercase, with diacritics), or undefined. */
export function czechIrregularLemmas(
  word: string,
): readonly string[] | undefined {
  return TABLE.get(word);
}
