/*
 * The leak fuzz corpus: catalog entities with awkward attributes (mixed case, non-ASCII, no
 * owner, spec fields) and TechDocs pages in which every chunk carries a unique secret canary
 * (`CANARY-e<entity>-<where>`) next to a unique lookup word, so a leak is found by substring and
 * a chunk can be asked for exactly. Add entities by appending to `LEAK_CORPUS_ENTITIES` (or pass
 * your own list to buildLeakCorpus); every derived word and canary follows from the list.
 */
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { JsonObject } from '@backstage/types';
import { TechDocsReader } from '../../../plugins/ask-docs-backend/src/ingestion/sources';
import { seededRandom } from '../../../plugins/ask-docs-backend/src/testUtils/seededRandom';

/** What a corpus entity is made of; everything else (words, canaries, pages) is derived. */
export interface CorpusEntitySpec {
  kind: string;
  namespace?: string;
  name: string;
  title?: string;
  /** `ownedBy` relation targets, as the catalog emits them (the catalog's IS_ENTITY_OWNER). */
  ownedBy: string[];
  /** `spec.owner` as written; defaults to ownedBy[0]. Set alone to model an unprocessed entity. */
  specOwner?: string;
  tags?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  spec?: JsonObject;
  /** TechDocs pages (default 2, two sections each); 0 for a catalog-only entity. */
  pages?: number;
}

export const LEAK_CORPUS_ENTITIES: CorpusEntitySpec[] = [
  {
    kind: 'Component',
    name: 'payments-api',
    ownedBy: ['group:default/team-a'],
    tags: ['public'],
    labels: { tier: 'gold' },
    spec: { type: 'service', lifecycle: 'production', tier: 1 },
  },
  {
    kind: 'Component',
    name: 'Ledger-Core',
    ownedBy: ['group:default/Łódź-Team'],
    tags: ['restricted', 'pci'],
    labels: { tier: 'Silver', env: 'prod' },
    annotations: { 'example.com/confidential': 'true' },
    spec: {
      type: 'service',
      lifecycle: 'Experimental',
      flags: ['pci', 'Łódź'],
    },
  },
  {
    kind: 'API',
    namespace: 'ops',
    name: 'İlker-tools',
    ownedBy: ['user:default/İlker'],
    tags: ['İstanbul'],
    labels: { Region: 'İstanbul' },
    annotations: { 'example.com/Region': 'İZMİR' },
    spec: {
      type: 'openapi',
      lifecycle: 'production',
      nested: { region: 'Eu' },
    },
  },
  {
    kind: 'System',
    name: 'orphan-system',
    ownedBy: [],
    tags: [],
    labels: {},
    spec: { type: 'platform' },
  },
  {
    kind: 'Resource',
    namespace: 'Zürich',
    name: 'straße-db',
    ownedBy: ['group:ops/Team-B', 'group:default/team-a'],
    tags: ['internal'],
    labels: { env: 'Dev' },
    annotations: { 'example.com/confidential': 'False' },
    spec: { type: 'database', tier: 2, flags: ['backup'] },
  },
  {
    kind: 'component',
    name: 'MixedCase-Web',
    ownedBy: ['group:default/ΟΜΑΔΑ-Σ'],
    tags: ['ΟΔΟΣ'],
    labels: { tier: 'ΟΔΟΣ' },
    spec: { type: 'Website', lifecycle: 'production', system: 'Billing' },
  },
  {
    kind: 'Component',
    name: 'no-owner-lib',
    ownedBy: [],
    tags: ['public', 'restricted'],
    annotations: { 'example.com/region': 'eu' },
    spec: { type: 'library', lifecycle: 'deprecated' },
  },
  // spec.owner without the ownedBy relation (an unprocessed entity): the catalog grants nothing
  {
    kind: 'Component',
    name: 'unprocessed-svc',
    ownedBy: [],
    specOwner: 'group:default/team-a',
    tags: ['restricted'],
    spec: { type: 'service', lifecycle: 'production' },
  },
  {
    kind: 'Api',
    namespace: 'finance',
    name: 'Łódź-billing',
    ownedBy: ['group:default/Łódź-Team', 'user:default/İlker'],
    tags: ['Łódź', 'pci'],
    labels: { tier: 'ŁÓDŹ' },
    annotations: { 'example.com/confidential': 'TRUE' },
    spec: {
      type: 'grpc',
      lifecycle: 'Production',
      flags: ['PCI'],
      nested: { region: 'eu' },
    },
  },
  {
    kind: 'Domain',
    name: 'catalog-only-domain',
    ownedBy: ['group:default/team-c'],
    tags: ['restricted'],
    labels: { env: 'prod' },
    spec: { owner: 'team-c' },
    pages: 0,
  },
  {
    kind: 'Component',
    namespace: 'OPS',
    name: 'Runbook-Svc',
    ownedBy: ['group:ops/team-b'],
    tags: ['internal', 'Public'],
    labels: { Tier: 'gold' },
    spec: { type: 'service', lifecycle: 'production', tier: 3 },
  },
  {
    kind: 'Component',
    name: 'user-owned',
    ownedBy: ['user:default/Mixed.Case'],
    tags: [],
    annotations: {
      'example.com/confidential': 'true',
      'example.com/region': 'US',
    },
    spec: { type: 'service' },
  },
];

export interface CorpusEntity {
  /** Position in the corpus; canaries and words are named after it. */
  index: number;
  spec: CorpusEntitySpec;
  entity: Entity;
  ref: string;
  /** TechDocs page path → HTML. */
  pages: Record<string, string>;
  /** Every canary of this entity's chunks (titles, headings, text, catalog description, spec). */
  canaries: string[];
  /** Lookup words, each only in this entity's chunks (one per section and catalog document). */
  words: string[];
}

export interface LeakCorpus {
  entities: CorpusEntity[];
  /** Entity index of a canary found in a response. */
  canaryEntity(canary: string): number | undefined;
  /** Entity index owning a lookup word. */
  wordEntity(word: string): number | undefined;
  techdocs: TechDocsReader;
}

/** Finds every canary in a text. */
export const CANARY_PATTERN = /CANARY-e\d+-[a-z0-9]+/g;
/** Finds lookup words (and their typos) in a text. */
export const WORD_PATTERN = /\bzq[a-z]+\b/g;

// Consonants only: no English suffix rule (-s, -ed, -ing, -y) can touch the lookup words.
const LETTERS = 'bcdfghjklmnprtvw';

/** Optimal string alignment distance. */
export function osaDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(
        d[i - 1][j] + 1,
        d[i][j - 1] + 1,
        d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The one-letter typo the fuzz asks with: the first random letter dropped. */
export const typoOf = (word: string) => word.slice(0, 2) + word.slice(3);

/** Lookup words four or more edits apart: a typo is one edit from its word, 3+ from the rest. */
function wordMaker(seed: number) {
  const random = seededRandom(seed);
  const made: string[] = [];
  return () => {
    for (;;) {
      const word = `zq${Array.from(
        { length: 6 },
        () => LETTERS[Math.floor(random() * LETTERS.length)],
      ).join('')}`;
      if (made.every(w => osaDistance(w, word) >= 4)) {
        made.push(word);
        return word;
      }
    }
  };
}

function toEntity(
  s: CorpusEntitySpec,
  description: string,
  specNote: string,
): Entity {
  const specOwner = s.specOwner ?? s.ownedBy[0];
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: s.kind,
    metadata: {
      name: s.name,
      namespace: s.namespace ?? 'default',
      title: s.title,
      description,
      tags: s.tags ?? [],
      labels: s.labels ?? {},
      annotations: {
        ...(s.pages === 0 ? {} : { 'backstage.io/techdocs-ref': 'dir:.' }),
        ...s.annotations,
      },
      etag: `etag-${s.name}`,
    },
    spec: {
      ...(specOwner ? { owner: specOwner } : {}),
      ...s.spec,
      notes: specNote,
    },
    relations: s.ownedBy.map(targetRef => ({ type: 'ownedBy', targetRef })),
  };
}

const html = (title: string, body: string) =>
  `<html><head><title>${title}</title></head><body><article>${body}</article></body></html>`;

/** Builds the corpus; `seed` only picks the lookup words. */
export function buildLeakCorpus(
  specs: CorpusEntitySpec[] = LEAK_CORPUS_ENTITIES,
  seed = 7,
): LeakCorpus {
  const nextWord = wordMaker(seed);
  const canaryOwner = new Map<string, number>();
  const wordOwner = new Map<string, number>();
  const entities = specs.map((s, index): CorpusEntity => {
    const canaries: string[] = [];
    const words: string[] = [];
    const canary = (where: string) => {
      const c = `CANARY-e${index}-${where}`;
      canaries.push(c);
      canaryOwner.set(c, index);
      return c;
    };
    const word = () => {
      const w = nextWord();
      words.push(w);
      wordOwner.set(w, index);
      return w;
    };
    // Each sentence holds a word and a canary, so any snippet of it shows the canary.
    const sentence = (where: string) =>
      `The ${word()} procedure is recorded as ${canary(where)}.`;
    const description = `${sentence(
      'cat',
    )} Catalog overview of the handbook entry.`;
    const entity = toEntity(s, description, `${word()} ${canary('spec')}`);
    const pages: Record<string, string> = {};
    for (let p = 1; p <= (s.pages ?? 2); p++) {
      const title = `Handbook ${p} ${canary(`t${p}`)}`;
      const sections = [1, 2]
        .map(
          n =>
            `<h2 id="s${n}">Section ${n} ${canary(
              `p${p}h${n}`,
            )}</h2><p>${sentence(`p${p}s${n}`)} Handbook notes.</p>`,
        )
        .join('');
      pages[p === 1 ? 'index.html' : `page${p}/index.html`] = html(
        title,
        `<h1>${title}</h1>${sections}`,
      );
    }
    return {
      index,
      spec: s,
      entity,
      ref: stringifyEntityRef(entity),
      pages,
      canaries,
      words,
    };
  });
  const byRef = new Map(entities.map(e => [e.ref, e]));
  const techdocs: TechDocsReader = {
    async getSite(entity) {
      const e = byRef.get(stringifyEntityRef(entity));
      if (!e || Object.keys(e.pages).length === 0) return undefined;
      return {
        siteName: e.spec.name,
        etag: 'rev-1',
        pages: Object.keys(e.pages),
      };
    },
    async getPage(entity, pagePath) {
      const page = byRef.get(stringifyEntityRef(entity))?.pages[pagePath];
      if (page === undefined) throw new Error(`no page ${pagePath}`);
      return page;
    },
  };
  return {
    entities,
    canaryEntity: c => canaryOwner.get(c),
    wordEntity: w => wordOwner.get(w),
    techdocs,
  };
}
