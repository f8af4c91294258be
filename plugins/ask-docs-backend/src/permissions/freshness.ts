/**
 * Fail closed on stale visibility attributes (docs/architecture.md, "Visibility attributes").
 * True unless the plugin enabled the guard (max_staleness_seconds set) and the last complete
 * catalog listing started longer ago than that, or never happened. Uncorrelated, so Postgres
 * evaluates it once per query.
 */
export const FRESH_VISIBILITY_ATTRIBUTES_SQL = `NOT EXISTS (
  SELECT 1 FROM ask_docs_visibility_sync s
   WHERE s.max_staleness_seconds IS NOT NULL
     AND (s.last_success_at IS NULL
          OR s.last_success_at < now() - s.max_staleness_seconds * interval '1 second'))`;

/**
 * A row the predicate may match: attributes written by the current code (folded keys present,
 * rows from before migration 0004 wait for a sync), and still in the catalog.
 */
export function liveEntitySql(alias: string): string {
  return `${alias}.attributes_hash IS NOT NULL AND ${alias}.deleted_at IS NULL`;
}
