/**
 * Release notes rank a little lower. A changelog names nearly every feature once, in a line
 * about when it changed, so for "how do I …" it matches as well as the page that explains the
 * feature and often better (the release notes of MkDocs above its configuration page, "What's
 * new in GIMP 2.10" above the tool's page). A question about releases keeps them as they are.
 * English and Czech headings, the plugin's built-in languages.
 */
import { FusionMethod, rescoreFused } from './fusion';

/**
 * Share of the fused score a release-notes chunk loses, per fusion method. Score fusion (the
 * hashing fallback's): 0.1, the mildest share that moved the tuning sets' English R@1 (0.2
 * gained nothing more; 0.3 and stronger one or two English questions more, but two Czech ones
 * whose answer is on a "What's new" page left the top 5; decision record 0009, eleventh round).
 * RRF (semantic models): off until measured with one. Its scores are compressed near the top,
 * so the same share moves a chunk several ranks down. 0 turns it off.
 */
export const DEFAULT_RELEASE_NOTES_PENALTY: Record<FusionMethod, number> = {
  scores: 0.1,
  rrf: 0,
};

// Whole words in any script: \b knows only ASCII letters ("vydání" would never end a word).
const words = (alternatives: string[]) =>
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:${alternatives.join('|')})(?![\p{L}\p{N}])`,
    'iu',
  );

// Anywhere in a heading: "Release Notes", "Changelog", "What's new in GIMP 2.10?", Czech
// "Co je v GIMPu nového?", "Poznámky k vydání". Not "Co je potřeba k vytvoření nového účtu".
const RELEASE_WORDS = words([
  String.raw`release notes?|release history|changelog|change log|what['’]?s new|version history`,
  String.raw`poznámky k vydání|seznam změn|historie změn|historie verzí|novinky`,
  String.raw`co je (?:ve? [^\s›]+ )?nového`,
]);

// A whole heading that is a release: "Version 1.6.0 (2024-04-20)", "E.1. Release 15.20",
// "E.21. Release 15", "4. Verze 2.0", "[1.2.3] - 2024-01-01", "v2.3.1", a changesets CHANGELOG's
// "1.30.0", Keep a Changelog's "[Unreleased]". Not "TLS version 1.2", "API version 2.1",
// "Migrating to version 3.0" or "9.4. String Functions" (a section number).
const SECTION_NUMBER = String.raw`(?:\p{Lu}?\d*(?:\.\d+)*\.\s+)?`;
const DATE = String.raw`\s*(?:\(\d{4}-\d\d-\d\d\)|[-–—]\s*\d{4}-\d\d-\d\d)`;
const RELEASE_HEADING = new RegExp(
  String.raw`^${SECTION_NUMBER}(?:` +
    [
      String.raw`(?:release|version|verze|vydání)\s+v?\d+(?:\.\d+)*(?:\s*\(.*\))?`,
      String.raw`\[?v?\d+(?:\.\d+){1,3}\]?${DATE}`,
      String.raw`v\d+(?:\.\d+){1,3}`,
      String.raw`\[?\d+\.\d+\.\d+(?:-[\w.]+)?\]?`,
      String.raw`\[?unreleased\]?`,
    ].join('|') +
    ')$',
  'iu',
);

// A question about releases: a version number (not an IP address, not a date as 7.5.2025), or
// words for releases and changes. Exempting too much only keeps the order as it was.
const VERSION_NUMBER = /(?<![\d.])v?\d+\.\d+(?:\.\d{1,3})?(?![.\d])/u;
const RELEASE_QUESTION = words([
  String.raw`releases?|versions?|changelog|change log|what['’]?s new|new in`,
  String.raw`what changed|changed in|introduced in|deprecated`,
  String.raw`verze|verzi|verzí|verzích|vydání|novinky|novinka|co je (?:ve? [^\s›]+ )?nového`,
  String.raw`co se změnilo|změny ve?|přibyl[aoy]?`,
]);

/** Whether a chunk's "Title › Section" path is a release's notes. */
export function isReleaseNotes(sectionPath: string): boolean {
  const path = sectionPath.replace(/\s+/g, ' ');
  return (
    RELEASE_WORDS.test(path) ||
    path.split('›').some(heading => RELEASE_HEADING.test(heading.trim()))
  );
}

/** Whether the question asks about releases or versions (release notes then answer it). */
export function asksAboutReleases(question: string): boolean {
  const text = question.replace(/\s+/g, ' ');
  return VERSION_NUMBER.test(text) || RELEASE_QUESTION.test(text);
}

/**
 * Lowers the fused score of release-notes chunks by `penalty` (a share, 0 to 1) and re-sorts;
 * unchanged for a question about releases. Stable: equal scores keep the input order.
 */
export function lowerReleaseNotes<T extends { id: string; rrf: number }>(
  fused: readonly T[],
  sectionPathOf: (id: string) => string | undefined,
  question: string | undefined,
  penalty: number,
): T[] {
  if (penalty <= 0 || (question && asksAboutReleases(question)))
    return [...fused];
  return rescoreFused(fused, f =>
    isReleaseNotes(sectionPathOf(f.id) ?? '') ? f.rrf * (1 - penalty) : f.rrf,
  );
}
