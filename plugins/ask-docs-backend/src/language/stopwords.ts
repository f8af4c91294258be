/**
 * Function words per language: retrieval ignores them in questions, and language detection
 * counts them as evidence. Lowercase surface forms, as tokenize() produces them.
 */

const ENGLISH = `a about above after again against all also am an and any are as at be because been
before being below between both but by can cannot could did do does doing don't done down during
each either etc few for from further get gets got had has have having he her here hers herself him
himself his how however i i'd i'll i'm i've if in into is isn't it it'll its itself just let may me
might more most must my myself neither no nor not now of off often on once one only or other our
ours ourselves out over own per please same shall she should so some such than that the their
theirs them themselves then there these they this those through thus to too under until up upon
us very via was we were what whatever when whenever where whether which while who whom whose why
will with within without would yet you you're your yours yourself yourselves`;

const CZECH = `a aby aj ale ani aniž ano asi až bez bude budou budu by byl byla byli bylo byly
bys být co což či další do ho i já jak jaká jaké jakou jaký jako jakož je jeho jej její jejich
jemu jen jenž jestli jestliže ještě ji jí jich jim jimi jiné jiný již jsem jsi jsme jsou jste k
kam kde kdo kdy když ke kolik která které kterou který kteří ku má mají mám máme máte mé mě mezi
mi mít mně mnou moje mu můj může my na nad nám námi nás náš naše ne nebo neboť nechť nejsou není
než nic ní ním o od on ona oni ono ony pak po pod podle pokud potom pouze právě pro proč proto
protože před přes při s se si sice své svůj svým svými ta tady tak také takže tam tato te tě
tedy téhle ten tento těch tím tímto to tohle toho tohoto tom tomto tomu toto tu tuto ty tyto u
už v vám vás váš vaše ve však vy z za zda zde ze že kterého kterému kterém kterým kterých
kterými jakého jakému jakém jakým jakých jakými čeho čemu čím koho komu kým vše všechno všichni
všechny všech všem všemi každý každá každé každou každého každém nějaký nějaká nějaké nějakou
nějakého nějakém nějakým nějakých žádný žádná žádné žádnou žádného musí musím musíme musíte
musejí muset musel musela mohu můžu můžeme můžete mohou mohl mohla lze této těchto těmito tomuto
svou svého svém svému sebe sobě nelze nemusí nemůže nemohu nemůžu`;

function toSet(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

export const ENGLISH_STOPWORDS = toSet(ENGLISH);
export const CZECH_STOPWORDS = toSet(CZECH);
