/** "cs-CZ", "CS", "cs_CZ" → "cs". */
export function normalizeLanguage(lang: string): string {
  return lang.trim().toLowerCase().split(/[-_]/)[0];
}
