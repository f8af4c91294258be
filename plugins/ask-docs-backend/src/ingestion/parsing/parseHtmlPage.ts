import { parseDocument } from 'htmlparser2';
import { AnyNode, Document, Element } from 'domhandler';
import { findFirst, hasAnyClass } from './domQueries';
import {
  assemblePage,
  DEFAULT_MAX_PAGE_CHARS,
  PAGE_NOTE_REDIRECT,
  PAGE_NOTE_TRUNCATED,
} from './pageAssembly';
import { inlineText, renderContent } from './renderContent';
import { normalizeInline, RawSection } from './textWriter';
import { ParsedPage, ParseHtmlPageOptions } from './types';

// Rendering may run a little past the cap so that assembly can cut at a clean boundary.
const BUDGET_SLACK = 2_000;
// Markup beyond this many characters per allowed text character is not even parsed: the parser
// builds the whole tree first, about 24 bytes of heap per character of markup, and pages are read
// concurrently. With the default page cap, 4 million characters: ten times the largest page of
// the PostgreSQL manual, navigation and highlighting included.
const HTML_PER_TEXT_CHAR = 10;
// However small the text cap, a large site's navigation (before the article) is read past.
const MIN_MARKUP_CHARS = 1_000_000;

/** How many characters of a page's markup parseHtmlPage reads at most (the rest is cut). */
export function maxMarkupChars(maxPageChars = DEFAULT_MAX_PAGE_CHARS) {
  return Math.max(maxPageChars * HTML_PER_TEXT_CHAR, MIN_MARKUP_CHARS);
}

/**
 * Renders a documentation page (TechDocs / MkDocs, DocBook manuals, plain HTML) to text with its
 * sections. Site chrome (navigation, headers, footers, sidebars, tables of contents) is left out.
 */
export function parseHtmlPage(
  html: string,
  options: ParseHtmlPageOptions = {},
): ParsedPage {
  const maxChars = options.maxPageChars ?? DEFAULT_MAX_PAGE_CHARS;
  let markup = html ?? '';
  const maxMarkup = maxMarkupChars(maxChars);
  const markupCut = markup.length > maxMarkup;
  if (markupCut) markup = markup.slice(0, maxMarkup);
  const doc = parseDocument(markup, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
    // XHTML output (DocBook) writes empty anchors as <a id="x"/>.
    recognizeSelfClosing: true,
  });

  if (isRedirect(doc)) {
    // A stub ("Redirecting...") left where a page moved from: the page it points to is indexed.
    return {
      title: options.fallbackTitle ?? '',
      text: '',
      sections: [],
      notes: [PAGE_NOTE_REDIRECT],
    };
  }

  const budget = maxChars + BUDGET_SLACK;
  const root = contentRoot(doc);
  let rendered = renderContent(root, budget);
  if (root !== doc && isBlank(rendered.sections)) {
    // A theme's content element may be empty while the text sits elsewhere: fall back to the body.
    const body = findFirst(doc.children, e => e.name === 'body') ?? doc;
    if (body !== root) rendered = renderContent(body, budget);
  }

  const titleElement = findFirst(
    doc.children,
    e => e.name === 'title',
    e => e.name === 'svg',
  );
  const titleTag = titleElement ? inlineText(titleElement) : '';
  const title = chooseTitle(rendered.sections, titleTag, options);
  const page = assemblePage(title, rendered.sections, maxChars);
  const cut = markupCut || rendered.stoppedEarly;
  if (cut && !page.notes.includes(PAGE_NOTE_TRUNCATED)) {
    page.notes.push(PAGE_NOTE_TRUNCATED);
  }
  return page;
}

/** The element holding the page body, from the most to the least specific convention. */
function contentRoot(doc: Document): AnyNode {
  const skip = (e: Element) =>
    e.name === 'script' || e.name === 'style' || e.name === 'template';
  const candidates: Array<(e: Element) => boolean> = [
    e => e.name === 'article' && hasAnyClass(e, MATERIAL_ARTICLE), // MkDocs material (TechDocs)
    e => e.attribs.role === 'main', // mkdocs and readthedocs themes
    e => e.name === 'main',
    e => e.name === 'body',
  ];
  for (const test of candidates) {
    const found = findFirst(doc.children, test, skip);
    if (found) return found;
  }
  return doc;
}
const MATERIAL_ARTICLE = new Set(['md-content__inner']);

/**
 * Whether the page sends the browser elsewhere with a meta refresh. A refresh without a URL only
 * reloads the page, and robots "noindex" alone keeps a page from web search, not from its readers.
 */
function isRedirect(doc: Document): boolean {
  const refresh = findFirst(
    doc.children,
    e =>
      e.name === 'meta' &&
      (e.attribs['http-equiv'] ?? '').trim().toLowerCase() === 'refresh',
    // A refresh inside <noscript> is a fallback for browsers without script, not a redirect.
    e =>
      e.name === 'body' ||
      e.name === 'script' ||
      e.name === 'svg' ||
      e.name === 'noscript',
  );
  return !!refresh && /[;,]\s*url\s*=/i.test(refresh.attribs.content ?? '');
}

function isBlank(sections: RawSection[]): boolean {
  return sections.every(s => !s.heading && s.blocks.length === 0);
}

/**
 * The first h1 is the title. Without one (DocBook), the first heading is the title when it repeats
 * the `<title>`; otherwise the `<title>` less its site suffix is.
 */
function chooseTitle(
  sections: RawSection[],
  titleTag: string,
  options: ParseHtmlPageOptions,
): string {
  const headings = sections.filter(s => s.heading).map(s => s.heading!);
  const h1 = headings.find(h => h.level === 1);
  if (h1) {
    h1.isTitle = true;
    return h1.text;
  }
  const cleaned = cleanTitle(titleTag, options.siteName);
  const first = headings[0];
  if (
    first &&
    (!cleaned ||
      sameText(first.text, cleaned) ||
      sameText(first.text, titleTag))
  ) {
    first.isTitle = true;
    return first.text;
  }
  return cleaned || options.fallbackTitle || '';
}

const SEPARATORS = [' - ', ' — ', ' – ', ' | ', ' · ', ' :: '];
/** Title words that name a documentation site (English and Czech). */
const SITE_WORD_LIST =
  'documentation docs manual handbook guide wiki mkdocs techdocs ' +
  'dokumentace příručka manuál nápověda';
const SITE_WORDS = new RegExp(
  `\\b(${SITE_WORD_LIST.replace(/ /g, '|')})\\b`,
  'i',
);

/**
 * Strips a site suffix ("Page - Site"): the given site name, else a trailing part that names docs.
 */
export function cleanTitle(raw: string, siteName?: string): string {
  const title = normalizeInline(raw);
  const site = siteName ? normalizeInline(siteName) : '';
  if (site) {
    if (title === site) return title;
    for (const sep of SEPARATORS) {
      if (title.endsWith(sep + site))
        return title.slice(0, -(sep + site).length).trim();
    }
  }
  // The rightmost separator whose remainder names documentation ends the page's own title.
  let best = -1;
  for (const sep of SEPARATORS) {
    const at = title.lastIndexOf(sep);
    if (at > best && SITE_WORDS.test(title.slice(at + sep.length))) best = at;
  }
  return best > 0 ? title.slice(0, best).trim() : title;
}

function sameText(a: string, b: string): boolean {
  return normalizeInline(a).toLowerCase() === normalizeInline(b).toLowerCase();
}
