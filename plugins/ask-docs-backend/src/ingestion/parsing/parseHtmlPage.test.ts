import { cleanTitle, parseHtmlPage } from './parseHtmlPage';
import {
  PAGE_NOTE_EMPTY,
  PAGE_NOTE_REDIRECT,
  PAGE_NOTE_TRUNCATED,
} from './pageAssembly';
import { expectPageInvariants } from './testUtils/invariants';

const expectConsistent = expectPageInvariants;

const materialPage = `<!doctype html>
<html><head><title>Configuration - My Docs</title>
<script>var secretScript = 1;</script><style>.x { color: red }</style></head>
<body>
<a href="#intro" class="md-skip">Skip to content</a>
<header class="md-header"><nav class="md-header__inner">\
<div class="md-header__title">My Docs Header</div></nav></header>
<div class="md-container"><main class="md-main"><div class="md-main__inner">
<div class="md-sidebar md-sidebar--primary"><nav class="md-nav md-nav--primary"><ul>\
<li class="md-nav__item"><a class="md-nav__link" href="../">Sidebar Home Link</a></li></ul></nav>\
</div>
<div class="md-content"><article class="md-content__inner md-typeset">
<a href="edit" class="md-content__button md-icon" title="Edit this page">Edit</a>
<h1 id="configuration">Configuration<a class="headerlink" href="#configuration" title="Permanent \
link">&para;</a></h1>
<p>Guide to   all
available settings.</p>
<h2 id="project-information">Project information<a class="headerlink" \
href="#project-information">¶</a></h2>
<h3 id="site_name">site_name<a class="headerlink" href="#site_name">¶</a></h3>
<p>This is a <strong>required setting</strong>. For example:</p>
<div class="highlight"><pre><span></span><code><span class="nt">site_name</span>\
<span class="p">:</span> Marshmallow Generator
<span class="nt">nav</span><span class="p">:</span>
    <span class="p">-</span> Home: index.md
</code></pre></div>
<table><thead><tr><th>Option</th><th>Default</th></tr></thead>
<tbody><tr><td><code>strict</code></td><td>false</td></tr></tbody></table>
<ul><li>first item</li><li><p>second item</p><p>continued</p></li></ul>
<h2 id="build">Build<a class="headerlink" href="#build">¶</a></h2>
<p>Run it.<br>Then look.</p>
<script>document.write("injected")</script>
</article></div>
<div class="md-sidebar md-sidebar--secondary"><nav class="md-nav md-nav--secondary">\
<label class="md-nav__title">Table of contents</label></nav></div>
</div></main>
<footer class="md-footer"><nav class="md-footer__inner"><a class="md-footer__link">\
<span class="md-footer__direction">Previous</span> Footer Prev Page</a></nav>
<div class="md-copyright">Made with Material for MkDocs</div></footer></div>
</body></html>`;

describe('parseHtmlPage: MkDocs material (TechDocs)', () => {
  const page = parseHtmlPage(materialPage);

  it('takes the title from the h1 and builds sections with anchors and heading paths', () => {
    expect(page.title).toBe('Configuration');
    expect(page.sections.map(s => [s.anchor, s.headingPath, s.level])).toEqual([
      ['configuration', [], 1],
      ['project-information', ['Project information'], 2],
      ['site_name', ['Project information', 'site_name'], 3],
      ['build', ['Build'], 2],
    ]);
    expectConsistent(page);
    expect(page.notes).toEqual([]);
  });

  it('leaves out navigation, header, footer, sidebars, edit buttons, scripts and styles', () => {
    for (const chrome of [
      'Skip to content',
      'My Docs Header',
      'Sidebar Home Link',
      'Table of contents',
      'Footer Prev Page',
      'Made with Material',
      'Edit',
      'secretScript',
      'injected',
      'color: red',
    ]) {
      expect(page.text).not.toContain(chrome);
    }
  });

  it('keeps no headerlink pilcrow in headings or text', () => {
    expect(page.text).not.toContain('¶');
    expect(page.sections.map(s => s.heading)).toEqual([
      'Configuration',
      'Project information',
      'site_name',
      'Build',
    ]);
  });

  it('keeps code blocks verbatim and flattens tables and lists readably', () => {
    const siteName = page.sections[2].text;
    expect(siteName).toContain(
      'site_name: Marshmallow Generator\nnav:\n    - Home: index.md',
    );
    expect(siteName).toContain('Option | Default\nstrict | false');
    expect(siteName).toContain('first item\nsecond item\ncontinued');
    expect(siteName).toContain('This is a required setting. For example:');
  });

  it('collapses inline whitespace and turns <br> into a line break', () => {
    expect(page.sections[0].text).toBe(
      'Configuration\n\nGuide to all available settings.',
    );
    expect(page.sections[3].text).toBe('Build\n\nRun it.\nThen look.');
  });
});

describe('parseHtmlPage: MkDocs extensions', () => {
  it('keeps empty table cells in their column, dropping only trailing ones', () => {
    const p = parseHtmlPage(
      '<table><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr>' +
        '<tr><td>x</td><td></td><td>z</td><td> </td></tr>' +
        '<tr><td></td><td>y</td></tr><tr><td></td><td><img src="i.png"></td></tr>' +
        '</table>',
    );
    expect(p.text).toBe('A | B | C | D\nx | | z\n| y');
    // DocBook's admonitions are borderless layout tables: an icon cell beside the text.
    const note = parseHtmlPage(
      '<div class="note"><table border="0" summary="Note"><tr><td rowspan="2">' +
        '<img alt="[Note]" src="note.png"></td><th>Note</th></tr>' +
        '<tr><td></td><td>Mind the gap.</td></tr></table></div>',
    );
    expect(note.text).toBe('Note\nMind the gap.');
  });

  // As mkdocs-redirects 1.2 writes it.
  const redirectStub = `
<!doctype html>
<html lang="en">
<head>
    <meta charset="utf-8">
    <title>Redirecting...</title>
    <link rel="canonical" href="../">
    <meta name="robots" content="noindex">
    <script>var anchor=window.location.hash.substr(1);location.href="../"+(anchor?"#"+anchor:"")\
</script>
    <meta http-equiv="refresh" content="0; url=../">
</head>
<body>
Redirecting...
</body>
</html>`;

  it('makes nothing of a redirect stub', () => {
    const p = parseHtmlPage(redirectStub, { fallbackTitle: 'old/index.html' });
    expect(p).toEqual({
      title: 'old/index.html',
      text: '',
      sections: [],
      notes: [PAGE_NOTE_REDIRECT],
    });
    const upper = redirectStub.replace(
      'http-equiv="refresh"',
      'HTTP-EQUIV="Refresh"',
    );
    expect(parseHtmlPage(upper).notes).toEqual([PAGE_NOTE_REDIRECT]);
  });

  it('keeps a page that only refreshes itself or is kept from search engines', () => {
    const p = parseHtmlPage(
      '<head><meta http-equiv="refresh" content="30"><meta name="robots" content="noindex">' +
        '</head><body><h1>Status</h1><p>All good.</p></body>',
    );
    expect(p.text).toBe('Status\n\nAll good.');
    expect(p.notes).toEqual([]);
    // A fallback for browsers without script: the page is the page.
    const q = parseHtmlPage(
      '<head><noscript><meta http-equiv="refresh" content="0; url=/basic/"></noscript>' +
        '</head><body><h1>Status</h1><p>All good.</p></body>',
    );
    expect(q.text).toBe('Status\n\nAll good.');
    expect(q.notes).toEqual([]);
  });

  // Python-Markdown footnotes as MkDocs material renders them.
  const footnotes = `<article class="md-content__inner md-typeset">
<h1 id="install">Install</h1>
<p>See the notes here<sup id="fnref:1"><a class="footnote-ref" href="#fn:1">1</a></sup> before \
you start.</p>
<div class="footnote">
<hr />
<ol>
<li id="fn:1">
<p>The footnote text.&#160;<a class="footnote-backref" href="#fnref:1" title="Jump back to \
footnote 1 in the text">&#8617;</a></p>
</li>
</ol>
</div>
</article>`;

  it('leaves footnote numbers and back links out of the text', () => {
    const p = parseHtmlPage(footnotes);
    expect(p.text).toBe(
      'Install\n\nSee the notes here before you start.\n\nThe footnote text.',
    );
    expect(p.text).not.toContain('here1');
    expect(p.text).not.toContain('↩');
  });

  // pymdownx.tabbed with alternate_style, as MkDocs material uses it.
  const tabs = `<article class="md-content__inner md-typeset">
<h1 id="install">Install</h1>
<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked="checked" \
id="__tabbed_1_1" name="__tabbed_1" type="radio" /><input id="__tabbed_1_2" name="__tabbed_1" \
type="radio" /><div class="tabbed-labels"><label for="__tabbed_1_1">Linux</label><label \
for="__tabbed_1_2">Windows</label></div>
<div class="tabbed-content">
<div class="tabbed-block">
<p>Run <code>apt install tiny</code>.</p>
</div>
<div class="tabbed-block">
<p>Run the installer.</p>
<div class="highlight"><pre><span></span><code>tiny.exe /S
</code></pre></div>
</div>
</div>
</div>
<p>Done.</p>
</article>`;

  it('puts each content tab label before its own block', () => {
    expect(parseHtmlPage(tabs).text).toBe(
      'Install\n\nLinux\n\nRun apt install tiny.\n\nWindows\n\nRun the installer.\n\n' +
        'tiny.exe /S\n\nDone.',
    );
  });

  it('renders the older content tabs markup the same way', () => {
    const legacy = `<h1>Install</h1><div class="tabbed-set" data-tabs="1:2">\
<input checked="checked" id="__tabbed_1_1" name="__tabbed_1" type="radio" />\
<label for="__tabbed_1_1">Linux</label><div class="tabbed-content">\
<p>Run <code>apt install tiny</code>.</p></div>\
<input id="__tabbed_1_2" name="__tabbed_1" type="radio" />\
<label for="__tabbed_1_2">Windows</label><div class="tabbed-content">\
<p>Run the installer.</p></div></div>`;
    expect(parseHtmlPage(legacy).text).toBe(
      'Install\n\nLinux\n\nRun apt install tiny.\n\nWindows\n\nRun the installer.',
    );
  });
});

const docbookPage = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>5.4. Constraints</title></head>
<body id="docContent">
<div class="navheader"><table><tr><th colspan="3">5.4. Constraints</th></tr>
<tr><td><a accesskey="p" href="a.html">Prev</a></td><th>Chapter 5. Data Definition</th><td>\
<a href="b.html">Next</a></td></tr></table><hr/></div>
<div class="sect1" id="DDL-CONSTRAINTS"><div class="titlepage"><div><div>\
<h2 class="title" style="clear: both">5.4. Constraints</h2></div></div></div>
<div class="toc"><dl class="toc"><dt><span class="sect2">\
<a href="#DDL-CHECK">5.4.1. Check Constraints (toc entry)</a></span></dt></dl></div>
<p>Data types are a way to limit the kind of data.</p>
<div class="sect2" id="DDL-CHECK"><div class="titlepage"><div><div>\
<h3 class="title">5.4.1. Check Constraints</h3></div></div></div>
<a id="id-1.5.4.6.5.2" class="indexterm"></a>
<p>A check constraint is the most generic constraint type.</p>
<div class="note"><h3 class="title">Note</h3>\
<p>PostgreSQL does not support CHECK constraints that reference other tables.</p></div>
<p>After the note.</p>
</div>
<div class="sect2"><div class="titlepage"><div><div><h3 class="title"><a id="DDL-NOTNULL">\
</a>5.4.2. Not-Null Constraints</h3></div></div></div>
<p>A not-null constraint simply specifies that a column must not assume the null value.</p>
<div class="sect3"><div class="titlepage"><div><div><h4 class="title"><a name="DDL-NOTNULL-EX">\
</a>5.4.2.1. Example</h4></div></div></div><p>An example.</p></div>
</div>
<div class="sect2"><div class="titlepage"><div><div><h3 class="title">5.4.3. Unanchored</h3></div>\
</div></div><p>Text of a section without any anchor.</p></div>
</div>
<div class="navfooter"><hr/><table><tr><td><a href="a.html">Prev</a></td><td>\
<a href="index.html">Home</a></td></tr>
<tr><td>5.3. Identity Columns</td><td>5.5. System Columns</td></tr></table>
<a href="https://gitlab.gnome.org" class="reportbug">Report a bug in GIMP</a></div>
</body></html>`;

describe('parseHtmlPage: DocBook', () => {
  const page = parseHtmlPage(docbookPage);

  it(`uses the first heading as title when it repeats <title>, anchored by the enclosing \
div`, () => {
    expect(page.title).toBe('5.4. Constraints');
    expect(page.sections[0]).toMatchObject({
      anchor: 'DDL-CONSTRAINTS',
      headingPath: [],
      level: 2,
    });
  });

  it('finds anchors on the section div, on <a id> and on <a name> inside the heading', () => {
    expect(page.sections.map(s => [s.anchor, s.headingPath])).toEqual([
      ['DDL-CONSTRAINTS', []],
      ['DDL-CHECK', ['5.4.1. Check Constraints']],
      ['DDL-NOTNULL', ['5.4.2. Not-Null Constraints']],
      ['DDL-NOTNULL-EX', ['5.4.2. Not-Null Constraints', '5.4.2.1. Example']],
      // No anchor of its own: links to the enclosing section, keeps an identity of its own.
      ['DDL-CONSTRAINTS', ['5.4.3. Unanchored']],
    ]);
    expect(page.sections[4].key).not.toBe(page.sections[0].key);
    expectConsistent(page);
  });

  it('does not anchor a heading to a container that had text before it', () => {
    const html = `<body><div id="content"><p>Intro.</p><h2>Later</h2><p>Body.</p></div></body>`;
    const p = parseHtmlPage(html);
    expect(p.sections.find(s => s.heading === 'Later')!.anchor).toBe('');
  });

  it('treats admonition headings as text, not as sections', () => {
    const check = page.sections[1];
    expect(check.text).toContain(
      'Note\n\nPostgreSQL does not support CHECK constraints',
    );
    expect(check.text).toContain('After the note.');
    expect(page.sections.some(s => s.heading === 'Note')).toBe(false);
  });

  it('leaves out navheader, navfooter and the table of contents', () => {
    expect(page.text).not.toContain('Prev');
    expect(page.text).not.toContain('Chapter 5. Data Definition');
    expect(page.text).not.toContain('(toc entry)');
    expect(page.text).not.toContain('5.5. System Columns');
    expect(page.text).not.toContain('Report a bug');
  });

  it('recognises XHTML self-closed anchors without swallowing the following text', () => {
    const p = parseHtmlPage(
      '<body><h2><a id="X"/>Title</h2><p>After.</p></body>',
    );
    expect(p.sections[0]).toMatchObject({
      anchor: 'X',
      heading: 'Title',
      text: 'Title\n\nAfter.',
    });
  });
});

describe('parseHtmlPage: titles', () => {
  it('strips a site suffix from <title> when there is no heading', () => {
    expect(
      parseHtmlPage('<title>Intro - MkDocs</title><p>Text.</p>').title,
    ).toBe('Intro');
    expect(
      parseHtmlPage(
        '<title>CREATE TABLE — PostgreSQL 15 documentation</title><p>x</p>',
      ).title,
    ).toBe('CREATE TABLE');
    expect(
      parseHtmlPage(
        '<title>Contributing - Pyvec – dokumentace spolku</title><p>x</p>',
        {
          siteName: 'Pyvec – dokumentace spolku',
        },
      ).title,
    ).toBe('Contributing');
  });

  it('keeps titles that merely contain a dash', () => {
    expect(cleanTitle('Export… and Overwrite - twice')).toBe(
      'Export… and Overwrite - twice',
    );
    expect(cleanTitle('PostgreSQL 15.20 Documentation')).toBe(
      'PostgreSQL 15.20 Documentation',
    );
  });

  it('prefers the h1 over <title>', () => {
    const p = parseHtmlPage(
      '<title>Old - Site docs</title><h1>Real Title</h1><p>x</p>',
    );
    expect(p.title).toBe('Real Title');
  });

  it('falls back to the given title when the page has none', () => {
    expect(
      parseHtmlPage('<p>only text</p>', { fallbackTitle: 'page.html' }).title,
    ).toBe('page.html');
  });
});

describe('parseHtmlPage: bad input', () => {
  it('survives unclosed and mismatched tags', () => {
    const p = parseHtmlPage(
      '<h2 id="a">First<p>one <b>bold <i>both</b> after</i><div><h2 ' +
        'id="b">Second</h2><p>two<li>item</ul></table>',
    );
    expect(p.sections.map(s => s.anchor)).toEqual(['a', 'b']);
    expect(p.text).toContain('one bold both after');
    expect(p.text).toContain('two\nitem');
    expectConsistent(p);
  });

  it('survives nesting far deeper than the call stack', () => {
    // Deep enough to overflow a recursive walk; htmlparser2 itself slows down quadratically beyond.
    const depth = 12_000;
    const html = `<body><h1>Deep</h1>${'<div><span>'.repeat(
      depth,
    )}bottom text.${'</span></div>'.repeat(depth)}</body>`;
    const p = parseHtmlPage(html);
    expect(p.text).toContain('bottom text.');
    const unclosed = parseHtmlPage(
      `<body><h1>Deep</h1>${'<font>'.repeat(2 * depth)}no end`,
    );
    expect(unclosed.text).toContain('no end');
  });

  it('returns no sections and an "empty" note for empty pages', () => {
    for (const html of [
      '',
      '   ',
      '<html><body></body></html>',
      '<script>only()</script><style>a{}</style>',
      '<!-- c -->',
    ]) {
      const p = parseHtmlPage(html);
      expect(p.sections).toEqual([]);
      expect(p.text).toBe('');
      expect(p.notes).toEqual([PAGE_NOTE_EMPTY]);
    }
  });

  it('caps huge pages at maxPageChars with a "truncated" note, cut at a boundary', () => {
    const paragraph =
      '<p>' + 'Lorem ipsum dolor sit amet. '.repeat(20) + '</p>';
    const html = `<h1>Huge</h1><h2 id="s">Part</h2>${paragraph.repeat(
      2_000,
    )}<h2 id="never">Never reached</h2><p>tail</p>`;
    const p = parseHtmlPage(html);
    expect(p.notes).toEqual([PAGE_NOTE_TRUNCATED]);
    expect(p.text.length).toBeLessThanOrEqual(400_000);
    expect(p.text.length).toBeGreaterThan(390_000);
    expect(p.text).not.toContain('Never reached');
    expect(p.text.endsWith('amet.')).toBe(true);
    expectConsistent(p);

    const small = parseHtmlPage(html, { maxPageChars: 1_000 });
    expect(small.text.length).toBeLessThanOrEqual(1_000);
    expect(small.notes).toContain(PAGE_NOTE_TRUNCATED);
    expectConsistent(small);
  });

  it('does not even parse markup far beyond the cap, and notes it', () => {
    // Beyond ten characters per text character, and beyond the floor of a million.
    const html = `<h1>T</h1><p>visible</p><div data-x="${'a'.repeat(
      1_000_000,
    )}"></div><p>beyond</p>`;
    const p = parseHtmlPage(html, { maxPageChars: 1_000 });
    expect(p.text).toContain('visible');
    expect(p.text).not.toContain('beyond');
    expect(p.notes).toEqual([PAGE_NOTE_TRUNCATED]);
  });

  it('does not note truncation for pages within the cap', () => {
    expect(
      parseHtmlPage('<h1>T</h1><p>short</p>', { maxPageChars: 100 }).notes,
    ).toEqual([]);
  });

  it('decodes entities and drops zero-width characters', () => {
    const p = parseHtmlPage(
      '<p>a&nbsp;&amp;&#8203;b &lt;tag&gt; caf&eacute;</p>',
    );
    expect(p.text).toBe('a &b <tag> café');
  });

  it('drops NUL characters, which text columns refuse', () => {
    const p = parseHtmlPage(
      '<title>T\u0000</title><h2>He\u0000ad</h2><p>a\u0000b</p>' +
        '<table><tr><td>c\u0000d</td></tr></table><pre>x\u0000y\n\u0000</pre>',
    );
    expect(p.text).toBe('Head\n\nab\n\ncd\n\nxy');
    expect(p.title).toBe('T');
  });

  it('keeps text before the first heading as a section with an empty anchor', () => {
    const p = parseHtmlPage(
      '<body><p>Preamble.</p><h2 id="x">X</h2><p>Body.</p></body>',
    );
    expect(p.sections[0]).toMatchObject({
      anchor: '',
      headingPath: [],
      level: 0,
      heading: '',
      text: 'Preamble.',
    });
    expect(p.sections[1]).toMatchObject({ anchor: 'x', heading: 'X' });
  });

  it('gives repeated anchors distinct section keys', () => {
    const p = parseHtmlPage(
      '<h2 id="dup">A</h2><p>a</p><h2 id="dup">B</h2><p>b</p>',
    );
    expect(p.sections.map(s => s.anchor)).toEqual(['dup', 'dup']);
    expect(new Set(p.sections.map(s => s.key)).size).toBe(2);
  });
});
