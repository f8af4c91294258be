import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { genericLanguage } from './createLanguageAnalyzers';
import { detectLanguage, languageScores } from './detectLanguage';

// Real documentation nobody on the project wrote (see /work/shared/corpora/README.md).
const SHARED = resolve(__dirname, '../../../../../shared');
const CORPORA = join(SHARED, 'corpora');
const EVAL = join(SHARED, 'eval');

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'ask-docs-lang-'));
  for (const name of ['pyvec-docs-cs', 'mkdocs-docs-en']) {
    execFileSync('tar', [
      '-xJf',
      join(CORPORA, `${name}.tar.xz`),
      '-C',
      workDir,
    ]);
  }
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function markdownPages(project: string): Array<{ page: string; text: string }> {
  const root = join(workDir, project, 'docs');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap(e =>
      e.isDirectory()
        ? walk(join(dir, e.name))
        : e.name.endsWith('.md')
        ? [join(dir, e.name)]
        : [],
    );
  return walk(root).map(file => ({
    page: relative(root, file),
    text: readFileSync(file, 'utf8'),
  }));
}

describe('detectLanguage on real documentation', () => {
  // Pages shorter than this are tables of contents and markup with no prose to judge.
  const PROSE = 1000;

  it('detects the Czech Pyvec pages as Czech, and its one English page as English', () => {
    const pages = markdownPages('pyvec-docs-cs').filter(
      p => p.text.length >= PROSE,
    );
    expect(pages.length).toBeGreaterThan(15);
    for (const { page, text } of pages) {
      // The Sli.do moderation guide is written in English within the Czech project.
      const expected = page === 'guides/slido-moderation.md' ? 'en' : 'cs';
      expect([page, detectLanguage(text, ['en', 'cs'])]).toEqual([
        page,
        expected,
      ]);
      expect([page, detectLanguage(text, ['cs', 'en'])]).toEqual([
        page,
        expected,
      ]);
    }
  });

  it('detects the MkDocs user guide as English', () => {
    const pages = markdownPages('mkdocs-docs-en').filter(
      p => p.text.length >= PROSE,
    );
    expect(pages.length).toBeGreaterThan(10);
    for (const { page, text } of pages) {
      expect([page, detectLanguage(text, ['cs', 'en'])]).toEqual([page, 'en']);
    }
  });

  it('detects the language of the evaluation questions that carry any evidence', () => {
    let judged = 0;
    for (const file of readdirSync(EVAL).filter(f => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(EVAL, file), 'utf8')
        .split('\n')
        .filter(Boolean)) {
        const item = JSON.parse(line) as {
          id: string;
          lang: string;
          kind: string;
          question: string;
        };
        // Cross-lingual items ask in English about Czech documents.
        const expected = item.kind === 'crosslingual' ? 'en' : item.lang;
        const [best, second] = languageScores(item.question, ['en', 'cs']);
        if (best.score === second.score) continue; // keyword-only questions: the default decides
        judged += 1;
        expect([item.id, best.lang]).toEqual([item.id, expected]);
      }
    }
    expect(judged).toBeGreaterThan(90);
  });
});

describe('detectLanguage rules', () => {
  it('falls back to the first candidate without evidence and trusts a single candidate', () => {
    expect(detectLanguage('GIMP 2.10', ['cs', 'en'])).toBe('cs');
    expect(detectLanguage('GIMP 2.10', ['en', 'cs'])).toBe('en');
    expect(detectLanguage('the and of', ['cs'])).toBe('cs');
    expect(() => detectLanguage('text', [])).toThrow();
  });

  it('reads Czech typed without diacritics from its stopwords', () => {
    expect(
      detectLanguage('jak nakreslit mrizku jen z krizku v prusecicich', [
        'en',
        'cs',
      ]),
    ).toBe('cs');
  });

  it('accepts profiles of plugged-in languages', () => {
    const german = genericLanguage('de', {
      stopwords: new Set(['der', 'die', 'das', 'und', 'ist']),
      distinctiveLetters: /[äöüß]/g,
    });
    const text =
      'Die Tabelle ist groß und das Ergebnis der Abfrage ist gültig.';
    expect(detectLanguage(text, ['en', 'de'], [german.profile])).toBe('de');
    // A global regex must not skip matches through its lastIndex.
    expect(
      languageScores('groß groß groß', ['de'], [german.profile])[0].score,
    ).toBe(3);
  });
});
