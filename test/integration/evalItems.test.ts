/*
 * Validates the evaluation question set in test/eval/items/*.jsonl against the real corpora:
 * format, ids, the deterministic split, counts, and that every answerable item's evidence is
 * verbatim text of its gold page under its gold heading. Fails (never skips) without corpora.
 */
import { createHash } from 'crypto';
import { existsSync, promises as fs, readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import {
  corporaDir,
  unpackCorpus,
} from '../../plugins/ask-docs-backend/src/ingestion/parsing/testUtils';

const ITEMS_DIR = path.join(__dirname, '..', 'eval', 'items');
const CORPORA = [
  'postgresql-docs',
  'gimp-help-en',
  'gimp-help-cs',
  'pyvec-docs-cs',
  'mkdocs-docs-en',
];
const MKDOCS = new Set(['pyvec-docs-cs', 'mkdocs-docs-en']);
const ANSWERABLE_KINDS = new Set([
  'keyword',
  'paraphrase',
  'howto',
  'multi',
  'morphology',
  'nodiacritics',
  'typo',
  'crosslingual',
]);
const UNANSWERABLE_KINDS = new Set(['near-miss', 'other-meaning', 'off-topic']);
const SPLITS = ['train', 'train', 'dev', 'test'];
// Admonition titles are rendered as headings but do not open a section.
const ADMONITION = new RegExp(
  '^(Note|Tip|Warning|Caution|Important|Example|' +
    'Poznámka|Varování|Upozornění|Důležité|Pozor|Příklad)$',
);
const BLOCK_TAGS =
  'p|div|br|li|dt|dd|tr|td|th|h[1-6]|pre|table|ul|ol|dl|blockquote|section|article|hr|' +
  'thead|tbody|caption|figure|figcaption|nav|header|footer|main|img';
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  para: '¶',
  quest: '?',
};

interface Item {
  id: string;
  corpus: string;
  lang: string;
  question: string;
  answerable: boolean;
  gold: Array<{ page: string; heading: string }>;
  evidence: string;
  kind: string;
  split: string;
  note?: string;
  file: string;
}

const norm = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const hex = e[1] === 'x' || e[1] === 'X';
      return String.fromCodePoint(
        parseInt(e.slice(hex ? 2 : 1), hex ? 16 : 10),
      );
    }
    return NAMED[e.toLowerCase()] ?? whole;
  });
}

/** Visible text: block tags turn into spaces, inline tags vanish, entities are decoded. */
function visibleText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(new RegExp(`</?(?:${BLOCK_TAGS})\\b[^>]*>`, 'gi'), ' ')
    .replace(/<[^>]*>/g, '');
  return norm(decode(text).replace(/¶/g, ''));
}

interface Section {
  level: number;
  heading: string;
  text: string;
}

/** A page as a flat list of sections, each running up to the next heading of any level. */
function pageSections(html: string, isMkdocs: boolean): Section[] {
  let body = html;
  if (isMkdocs) {
    const start = body.search(/<article class="md-content__inner[^"]*"[^>]*>/);
    if (start >= 0) body = body.slice(start);
    const end = body.indexOf('</article>');
    if (end >= 0) body = body.slice(0, end);
  }
  const parts = body.split(/(<h[1-6]\b[^>]*>[\s\S]*?<\/h[1-6]>)/i);
  const sections: Section[] = [
    { level: 0, heading: '', text: visibleText(parts[0]) },
  ];
  for (let i = 1; i < parts.length; i += 2) {
    const heading = visibleText(parts[i]);
    const text = visibleText(parts[i + 1] ?? '');
    const last = sections[sections.length - 1];
    if (ADMONITION.test(heading)) last.text = `${last.text} ${heading} ${text}`;
    else sections.push({ level: Number(parts[i][2]), heading, text });
  }
  return sections;
}

/** Text under `heading`, subsections included; undefined when the page has no such heading. */
function sectionText(sections: Section[], heading: string): string | undefined {
  const at = sections.findIndex(
    s => s.level > 0 && s.heading === norm(heading),
  );
  if (at < 0) return undefined;
  const texts = [sections[at].text];
  for (
    let i = at + 1;
    i < sections.length && sections[i].level > sections[at].level;
    i++
  ) {
    texts.push(sections[i].heading, sections[i].text);
  }
  return texts.join(' ');
}

/** The HTML file of a gold page: the manual's file, or MkDocs' built page for docs/<page>. */
function pageFile(root: string, corpus: string, page: string): string {
  if (!MKDOCS.has(corpus)) return path.join(root, page);
  let route = page.replace(/\.md$/, '');
  if (route === 'index' || route.endsWith('/index'))
    route = route.slice(0, -'index'.length);
  else if (route === 'README' || route.endsWith('/README')) {
    route = route.slice(0, -'README'.length);
  }
  return path.join(root, 'site', route, 'index.html');
}

function loadItems(): Item[] {
  const files = readdirSync(ITEMS_DIR)
    .filter(f => f.endsWith('.jsonl'))
    .sort();
  const items: Item[] = [];
  for (const file of files) {
    readFileSync(path.join(ITEMS_DIR, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.trim()) return;
        let parsed: Item;
        try {
          parsed = JSON.parse(line);
        } catch (e) {
          throw new Error(
            `${file}:${i + 1} is not valid JSON: ${(e as Error).message}`,
          );
        }
        items.push({ ...parsed, file });
      });
  }
  return items;
}

function devItems(): Array<{ id: string; question: string }> {
  const dir = path.join(path.dirname(corporaDir()), 'eval');
  return readdirSync(dir)
    .filter(f => f.endsWith('.jsonl'))
    .flatMap(f =>
      readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .filter(l => l.trim())
        .map(l => JSON.parse(l)),
    );
}

const splitOf = (id: string) =>
  SPLITS[createHash('sha256').update(id).digest()[0] % 4];

describe('evaluation items (test/eval/items)', () => {
  const items = loadItems();
  const answerable = items.filter(i => i.answerable);
  const roots = new Map<string, string>();

  beforeAll(async () => {
    const dir = corporaDir();
    if (!existsSync(dir)) throw new Error(`Corpora folder ${dir} is missing`);
    for (const name of CORPORA) roots.set(name, await unpackCorpus(name));
  }, 180_000);

  it('has well-formed items with the allowed values', () => {
    const problems: string[] = [];
    for (const it of items) {
      const where = `${it.file} ${it.id}`;
      if (!/^[a-z]+(-[a-z]+)?-\d{3}$/.test(String(it.id)))
        problems.push(`${where}: id`);
      if (!CORPORA.includes(it.corpus))
        problems.push(`${where}: corpus ${it.corpus}`);
      if (!['en', 'cs'].includes(it.lang))
        problems.push(`${where}: lang ${it.lang}`);
      if (typeof it.question !== 'string' || it.question.trim().length < 8) {
        problems.push(`${where}: question`);
      }
      if (typeof it.answerable !== 'boolean')
        problems.push(`${where}: answerable`);
      if (!Array.isArray(it.gold)) problems.push(`${where}: gold`);
      if (it.answerable) {
        if (!ANSWERABLE_KINDS.has(it.kind))
          problems.push(`${where}: kind ${it.kind}`);
        if (it.gold.length === 0 || it.gold.some(g => !g.page || !g.heading)) {
          problems.push(`${where}: gold`);
        }
        const n = norm(it.evidence ?? '').length;
        if (n < 15 || n > 300) problems.push(`${where}: evidence length ${n}`);
      } else {
        if (!UNANSWERABLE_KINDS.has(it.kind))
          problems.push(`${where}: kind ${it.kind}`);
        if (it.gold.length !== 0)
          problems.push(`${where}: unanswerable item with gold`);
        if (!it.note || it.note.length < 10) problems.push(`${where}: note`);
      }
      if (splitOf(it.id) !== it.split) {
        problems.push(
          `${where}: split ${it.split}, rule says ${splitOf(it.id)}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('has unique ids, also against the shared dev set, and no dev question reused', () => {
    const dev = devItems();
    const seen = new Set(dev.map(d => d.id));
    const duplicates = items
      .filter(it => seen.has(it.id) || !seen.add(it.id))
      .map(it => it.id);
    expect(duplicates).toEqual([]);
    const devQuestions = new Set(dev.map(d => norm(d.question).toLowerCase()));
    const reused = items.filter(it =>
      devQuestions.has(norm(it.question).toLowerCase()),
    );
    expect(reused.map(it => it.id)).toEqual([]);
    const ownQuestions = new Set<string>();
    const repeated = items.filter(it => {
      const q = norm(it.question).toLowerCase();
      return ownQuestions.has(q) || !ownQuestions.add(q);
    });
    expect(repeated.map(it => it.id)).toEqual([]);
  });

  it('meets the size targets', () => {
    expect(answerable.length).toBeGreaterThanOrEqual(400);
    const unanswerable = items.filter(i => !i.answerable);
    expect(unanswerable.length).toBeGreaterThanOrEqual(150);
    const nearMisses = unanswerable.filter(i => i.kind !== 'off-topic');
    expect(nearMisses.length * 2).toBeGreaterThanOrEqual(unanswerable.length);
    expect(items.filter(i => i.lang === 'cs').length).toBeGreaterThanOrEqual(
      150,
    );
  });

  it('quotes every evidence verbatim from its gold page, under its gold heading', async () => {
    const cache = new Map<string, Section[]>();
    const problems: string[] = [];
    for (const it of answerable) {
      const root = roots.get(it.corpus)!;
      for (const gold of it.gold) {
        const file = pageFile(root, it.corpus, gold.page);
        const key = `${it.corpus}/${gold.page}`;
        if (!cache.has(key)) {
          if (!existsSync(file)) {
            problems.push(`${it.id}: no page ${gold.page} in ${it.corpus}`);
            continue;
          }
          cache.set(
            key,
            pageSections(
              await fs.readFile(file, 'utf8'),
              MKDOCS.has(it.corpus),
            ),
          );
        }
        const text = sectionText(cache.get(key)!, gold.heading);
        if (text === undefined) {
          problems.push(
            `${it.id}: no heading "${gold.heading}" on ${gold.page}`,
          );
        } else if (gold === it.gold[0] && !text.includes(norm(it.evidence))) {
          problems.push(
            `${it.id}: evidence not under "${gold.heading}" on ${gold.page}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('rejects evidence that is not on the page (the check is not vacuous)', () => {
    const sections = pageSections(
      '<h2>Alpha</h2><p>first <code>x</code>y &amp; z</p><h3>Beta</h3><p>second</p>' +
        '<h2>Gamma</h2><p>third</p>',
      false,
    );
    expect(sectionText(sections, 'Alpha')).toContain('first xy & z');
    expect(sectionText(sections, 'Alpha')).toContain('second');
    expect(sectionText(sections, 'Alpha')).not.toContain('third');
    expect(sectionText(sections, 'Beta')).not.toContain('first');
    expect(sectionText(sections, 'Delta')).toBeUndefined();
  });
});
