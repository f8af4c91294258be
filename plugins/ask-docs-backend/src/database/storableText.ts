/**
 * Whether Postgres can store the string in text and jsonb columns: no NUL (U+0000), which
 * neither accepts, and no lone UTF-16 surrogate, whose `\ud800` escape jsonb refuses (the
 * driver writes one into text as U+FFFD, silently changing it).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}
