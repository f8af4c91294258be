import { Element, isText } from 'domhandler';
import { getAttributeValue } from 'domutils';
import { classList, findFirst, isHeadingTag } from './domQueries';

/** Elements whose content is never page text. */
const SKIPPED_TAGS = new Set([
  'head',
  'title',
  'meta',
  'link',
  'base',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'video',
  'audio',
  'img',
  'picture',
  'source',
  'map',
  'nav',
  'aside',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'dialog',
]);

/**
 * Site chrome by class: MkDocs material / mkdocs / readthedocs / Sphinx navigation, DocBook
 * navigation and tables of contents, permalink anchors next to headings, and footnote links.
 */
const EXCLUDED_CLASSES = new Set([
  // MkDocs material
  'md-header',
  'md-footer',
  'md-sidebar',
  'md-nav',
  'md-search',
  'md-dialog',
  'md-top',
  'md-tabs',
  'md-banner',
  'md-announce',
  'md-skip',
  'md-source',
  'md-source-file',
  'md-content__button',
  'md-clipboard',
  'md-feedback',
  'md-consent',
  'md-overlay',
  // mkdocs / readthedocs / Sphinx themes
  'navbar',
  'bs-sidebar',
  'wy-nav-side',
  'wy-nav-top',
  'rst-versions',
  'rst-footer-buttons',
  'sphinxsidebar',
  'related',
  'breadcrumb',
  'breadcrumbs',
  'wy-breadcrumbs',
  // permalinks
  'headerlink',
  'hash-link',
  'anchor-link',
  'anchorjs-link',
  'permalink',
  // Footnote numbers (Python-Markdown, pandoc) and their "↩" back links. The footnotes below are
  // rendered unnumbered, so a number glued to the word before it ("here1") is only noise.
  'footnote-ref',
  'footnote-backref',
  'footnote-back',
  // code line numbers
  'linenos',
  'linenodiv',
  'lineno',
  // DocBook
  'navheader',
  'navfooter',
  'toc',
  'list-of-tables',
  'list-of-figures',
  'list-of-examples',
  'list-of-equations',
  'list-of-procedures',
]);

const EXCLUDED_ROLES = new Set([
  'navigation',
  'search',
  'banner',
  'contentinfo',
  'complementary',
  'doc-backlink',
]);

/**
 * Containers whose headings are labels inside the text (admonitions, figures), not section starts.
 */
const NON_SECTIONING_CLASSES = new Set([
  'note',
  'tip',
  'warning',
  'caution',
  'important',
  'sidebar',
  'example',
  'figure',
  'table',
  'informaltable',
  'equation',
  'procedure',
  'admonition',
  'callout',
]);
const NON_SECTIONING_TAGS = new Set([
  'blockquote',
  'li',
  'dd',
  'dt',
  'details',
  'summary',
  'figure',
  'td',
  'th',
]);

/** Elements that start and end a paragraph. */
export const PARAGRAPH_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'address',
  'blockquote',
  'figure',
  'details',
  'fieldset',
  'center',
  'dl',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'body',
  'html',
]);

/** Elements that start and end a line. */
export const LINE_TAGS = new Set([
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'table',
  'caption',
  'figcaption',
  'summary',
  'legend',
  'option',
]);

export function isExcluded(el: Element): boolean {
  if (SKIPPED_TAGS.has(el.name)) return true;
  const attribs = el.attribs;
  if (attribs.hidden !== undefined) return true;
  if (attribs['aria-hidden'] === 'true') return true;
  if (attribs.role && EXCLUDED_ROLES.has(attribs.role)) return true;
  if (attribs.style && /display\s*:\s*none/i.test(attribs.style)) return true;
  if (attribs.class && classList(el).some(c => EXCLUDED_CLASSES.has(c)))
    return true;
  // Site headers and footers go, but an article's own <header> holding its title stays.
  if (el.name === 'header' || el.name === 'footer') {
    return !findFirst(el.children, isHeadingTag);
  }
  if (el.name === 'a' && isPermalinkAnchor(el)) return true;
  return false;
}

/** A bare "¶" / "#" / "§" link to a fragment, as heading permalinks are rendered. */
function isPermalinkAnchor(el: Element): boolean {
  const href = getAttributeValue(el, 'href');
  if (!href || !href.startsWith('#')) return false;
  let text = '';
  for (const child of el.children) {
    if (isText(child)) text += child.data;
    else return false;
  }
  return /^\s*[¶#§🔗]\s*$/u.test(text);
}

export function isNonSectioning(el: Element): boolean {
  if (NON_SECTIONING_TAGS.has(el.name)) return true;
  return (
    !!el.attribs.class && classList(el).some(c => NON_SECTIONING_CLASSES.has(c))
  );
}
