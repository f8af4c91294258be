/**
 * Release notes rank a little lower. A changelog names nearly every feature once, in a line
 * about when it changed, so for "how do I …" it matches as well as the page that explains the
 * feature and often better (the release notes of MkDocs above its configuration page, "What's
 * new in GIMP 2.10" above the tool's page). A question about releases keeps them as they are.
 * English and Czech headings, the plugin's built-in languages.
 */

/**
 * Share of the fused score a release-notes chunk loses: 0.1, the mildest share that moved the
 * tuning sets' English R@1 (0.2 gained nothing more; 0.3 and stronger one or two English
 * questions more, but two Czech ones whose answer is on a "What's new" page left the top 5;
 * decision record 0009, eleventh round). 0 turns it off.
 */
export const DEFAULT_RELEASE_NOTES_PENALTY = 0.1;

// Whole words in any script: \b knows only ASCII letters ("vydání" would never end a word).
const words = (alternatives: string[]) =>
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:${alternatives.join('|')})(?![\p{L}\p{N}])`,
    'iu',
  );

// A heading that names a release: "Release Notes", "Changelog", "What's new in GIMP 2.10?",
// "Version 1.6.0 (2024-04-20)", "E.1. Release 15.20", "Co je v GIMPu nového?", "Verze 2.0".
const RELEASE_HEADING = words([
  String.raw`release notes?|changelog|change log|what['’]?s new|version history`,
  String.raw`poznámky k vydání|seznam změn|historie změn|historie verzí|novinky`,
  String.raw`co je [^›]{0,30}nového`,
  String.raw`(?:release|version|verze|vydání) v?\d+(?:\.\d+)+`,
]);

// A question about releases: a version number, or a word for a release or a change log
// (not "nového", which is any "new" in Czech: "nového uživatele").
const RELEASE_QUESTION = words([
  String.raw`\d+\.\d+`,
  String.raw`releases?|versions?|changelog|change log|what['’]?s new|new in`,
  String.raw`verze|verzi|verzí|verzích|vydání|novinky|novinka`,
]);

/** Whether a chunk's "Title › Section" path is a release's notes. */
export function isReleaseNotes(sectionPath: string): boolean {
  return RELEASE_HEADING.test(sectionPath.replace(/\s+/g, ' '));
}

/** Whether the question asks about releases or versions (release notes then answer it). */
export function asksAboutReleases(question: string): boolean {
  return RELEASE_QUESTION.test(question.replace(/\s+/g, ' '));
}

/**
 * Lowers the fused score of release-notes chunks by `penalty` (a share, 0 to 1) and re-sorts;
 * unchanged for a question about releases. Stable: equal scores keep the input order.
 */
export function lowerReleaseNotes<T extends { id: string; rrf: number }>(
  fused: readonly T[],
  sectionPaths: ReadonlyMap<string, string>,
  question: string | undefined,
  penalty: number = DEFAULT_RELEASE_NOTES_PENALTY,
): T[] {
  if (penalty <= 0 || (question && asksAboutReleases(question)))
    return [...fused];
  return fused
    .map((f, i) => ({
      f: isReleaseNotes(sectionPaths.get(f.id) ?? '')
        ? { ...f, rrf: f.rrf * (1 - penalty) }
        : f,
      i,
    }))
    .sort((a, b) => b.f.rrf - a.f.rrf || a.i - b.i)
    .map(x => x.f);
}
