import { Entity } from '@backstage/catalog-model';
import { assemblePage, DEFAULT_MAX_PAGE_CHARS } from './pageAssembly';
import { RawSection } from './textWriter';
import { ParsedPage } from './types';

/** Spec fields shown in the overview, in this order, rather than under "Spec". */
const OVERVIEW_SPEC_FIELDS: Array<[field: string, label: string]> = [
  ['type', 'Type'],
  ['owner', 'Owner'],
  ['lifecycle', 'Lifecycle'],
  ['system', 'System'],
  ['domain', 'Domain'],
];

// Keys whose values are credentials in any sane spec; never rendered.
const SECRET_KEY =
  /(secret|passw(or)?d|token|api[-_]?key|credential|private[-_]?key|auth[-_]?key)/i;

/** A string value this long, or spanning lines (an API definition), gets a section of its own. */
const LONG_VALUE_CHARS = 300;

// An embedded file (the Microsoft Graph provider's profile photo) is no text: a whole value that
// is a data: URI goes, so do base64 data: URIs inside text, and a whole value that is nothing but
// a long base64 block. A long URL ("…/Runbook+for+the+payments+…") or minified JSON stays: it has
// characters base64 lacks.
const DATA_URI_VALUE = /^data:([\w.+-]+\/[\w.+-]+)?(;[^,\s]*)?,/i;
// The lookbehind keeps a long run of blanks from being rescanned at every position.
const INLINE_BASE64_URI =
  /(?<![ \t])[ \t]*data:[^,\s]*;base64,[A-Za-z0-9+/=]*/gi;
// Lines of 40 or more base64 characters (PEM, MIME; the last may be shorter), not prose: words
// are shorter.
const BASE64_BLOCK =
  /^\s*(?:(?:[A-Za-z0-9+/=]{40,}\s+)+[A-Za-z0-9+/=]+|[A-Za-z0-9+/=]{40,})\s*$/;
const BASE64_BLOCK_CHARS = 200;

export interface EntityDocumentOptions {
  maxPageChars?: number;
}

/**
 * A catalog entity as a readable document: an overview section (title, description, kind, owner,
 * lifecycle, tags, links) and a "Spec" section of "key: value" lines, with long text fields such as
 * an API definition in sections of their own. Annotations and labels are left out: they are
 * machine configuration and can carry secrets.
 */
export function entityToDocument(
  entity: Entity,
  options: EntityDocumentOptions = {},
): ParsedPage {
  const metadata = entity.metadata;
  const spec = (entity.spec ?? {}) as Record<string, unknown>;
  const title = scalar(metadata.title) || metadata.name;

  const facts: string[] = [
    `Kind: ${entity.kind}`,
    `Name: ${metadata.name}`,
    `Namespace: ${metadata.namespace ?? 'default'}`,
  ];
  for (const [field, label] of OVERVIEW_SPEC_FIELDS) {
    const value = scalar(spec[field]);
    if (value) facts.push(`${label}: ${value}`);
  }
  const tags = (metadata.tags ?? []).map(scalar).filter(Boolean);
  if (tags.length > 0) facts.push(`Tags: ${tags.join(', ')}`);
  const links = (metadata.links ?? [])
    .map(l => scalar(l.title) || scalar(l.url))
    .filter(Boolean);
  if (links.length > 0) facts.push(`Links: ${links.join(', ')}`);

  const overview: string[] = [title];
  const description = scalar(metadata.description);
  if (description) overview.push(...paragraphs(description));
  overview.push(facts.join('\n'));

  const lines: string[] = [];
  const longFields: RawSection[] = [];
  const shown = new Set(OVERVIEW_SPEC_FIELDS.map(([f]) => f));
  for (const [key, value] of Object.entries(spec)) {
    if (shown.has(key) && scalar(value)) continue;
    flatten(key, value, lines, longFields);
  }

  const sections: RawSection[] = [{ blocks: overview }];
  if (lines.length > 0) {
    sections.push({
      heading: { text: 'Spec', level: 2, anchor: 'spec' },
      blocks: [lines.join('\n')],
    });
  }
  sections.push(...longFields);
  return assemblePage(
    title,
    sections,
    options.maxPageChars ?? DEFAULT_MAX_PAGE_CHARS,
  );
}

/** Appends "a.b: value" lines for `value`; arrays of scalars are joined, nested objects dotted. */
function flatten(
  path: string,
  value: unknown,
  lines: string[],
  longFields: RawSection[],
): void {
  const key = path.split('.').pop()!;
  if (SECRET_KEY.test(key.replace(/\[\d+\]$/, ''))) return;
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    if (value.every(v => v === null || typeof v !== 'object')) {
      const items = value.map(scalar).filter(Boolean);
      if (items.length > 0) lines.push(`${path}: ${items.join(', ')}`);
      return;
    }
    value.forEach((v, i) => flatten(`${path}[${i}]`, v, lines, longFields));
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      flatten(`${path}.${k}`, v, lines, longFields);
    }
    return;
  }
  const text = scalar(value);
  if (!text) return;
  if (text.includes('\n') || text.length > LONG_VALUE_CHARS) {
    longFields.push({
      heading: {
        text: path,
        level: 3,
        anchor: `spec-${path.replace(/[^A-Za-z0-9_-]+/g, '-')}`,
      },
      blocks: paragraphs(text),
    });
    return;
  }
  lines.push(`${path}: ${text}`);
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    // NUL: PostgreSQL text columns refuse it, and with it the whole page.
    const text = value.replace(/\u0000/g, '');
    const block = text.length >= BASE64_BLOCK_CHARS && BASE64_BLOCK.test(text);
    if (DATA_URI_VALUE.test(text.trimStart()) || block) return '';
    return text.replace(INLINE_BASE64_URI, '').trim();
  }
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return '';
}

/** Paragraphs of free text: blank-line separated, lines right-trimmed, blank runs collapsed. */
function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map(p =>
      p
        .split('\n')
        .map(l => l.trimEnd())
        .join('\n')
        .replace(/^\n+|\n+$/g, ''),
    )
    .filter(p => p.trim() !== '');
}
