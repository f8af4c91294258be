-- Exploratory benchmark for decision record 0010: keys as one tsvector per chunk with a GIN
-- index, the layout issue 15 suggests. Synthetic, not product code: 100k chunks of ~300 keys
-- ("kind:term", log-uniform over 60k terms, plus tf-bucket keys), as many as a real chunk has.
-- Run against a scratch database (it creates and leaves the table ask_docs_bench_chunk_keys):
--   psql "$ASK_DOCS_TEST_PG_URL" -f test/bench/perChunkKeys.sql
\timing on
DROP TABLE IF EXISTS ask_docs_bench_chunk_keys;
CREATE TABLE ask_docs_bench_chunk_keys (
  chunk_no int PRIMARY KEY, entity_no int, term_count int, keys tsvector);
INSERT INTO ask_docs_bench_chunk_keys
SELECT g, g % 100, 150, (
  SELECT array_to_tsvector(array_agg(DISTINCT k)) FROM (
    SELECT (CASE i % 3 WHEN 0 THEN 'l:' WHEN 1 THEN 's:' ELSE 'w:' END)
           || 'term' || floor(exp(random() * ln(60000)))::int AS k
      FROM generate_series(1, 330) i
    UNION ALL
    SELECT '2l:term' || floor(exp(random() * ln(2000)))::int FROM generate_series(1, 40)) s)
FROM generate_series(1, 100000) g;
CREATE INDEX ask_docs_bench_chunk_keys_gin ON ask_docs_bench_chunk_keys USING gin (keys);
VACUUM ANALYZE ask_docs_bench_chunk_keys;
-- Storage: heap (with TOAST) and GIN per chunk.
SELECT pg_table_size('ask_docs_bench_chunk_keys') / 100000 AS heap_bytes_per_chunk,
       pg_relation_size('ask_docs_bench_chunk_keys_gin') / 100000 AS gin_bytes_per_chunk,
       avg(length(keys))::int AS keys_per_chunk
  FROM ask_docs_bench_chunk_keys;
-- Candidates of a rare and of a common key (GIN only).
SELECT count(*) FROM ask_docs_bench_chunk_keys WHERE keys @@ $$'l:term5000'$$::tsquery;
SELECT count(*) FROM ask_docs_bench_chunk_keys WHERE keys @@ $$'l:term5' | 's:term5'$$::tsquery;
-- Scoring needs each candidate's tf per query token: read from the tsvector (tf buckets), that
-- detoasts the value per test. Time per candidate = execution time / rows.
EXPLAIN (ANALYZE, TIMING OFF)
SELECT chunk_no,
       CASE WHEN NOT keys @@ $$'2l:term5'$$::tsquery
            THEN (keys @@ $$'l:term5' | 's:term5'$$::tsquery)::int ELSE 2 END +
       CASE WHEN NOT keys @@ $$'2l:term7'$$::tsquery
            THEN (keys @@ $$'l:term7' | 's:term7'$$::tsquery)::int ELSE 2 END AS tf_sum
  FROM ask_docs_bench_chunk_keys
 WHERE keys @@ $$'l:term5' | 's:term5' | 'l:term7' | 's:term7'$$::tsquery
 ORDER BY tf_sum DESC LIMIT 40;
