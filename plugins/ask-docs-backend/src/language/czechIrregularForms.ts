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

/** Lemmas of an irregular Czech form (lowercase, with diacritics), or undefined. */
export function czechIrregularLemmas(
  word: string,
): readonly string[] | undefined {
  return TABLE.get(word);
}
