/*
 * The retrieval benchmark (test/bench/retrieval.ts) at a tiny size on the embedded database, so
 * the script and the code paths it measures stay runnable (issue 15). This checks what it
 * reports, never how fast anything was: timings on a shared 2-core machine are not a test.
 */
import { execFile } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { promisify } from 'util';

const root = path.resolve(__dirname, '../..');

describe('retrieval benchmark, tiny size', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-docs-bench-smoke-'));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('ingests, loads, searches and reports every figure the issue asks for', async () => {
    const env = { ...process.env };
    delete env.ASK_DOCS_TEST_PG_URL; // always the embedded server here
    await promisify(execFile)(
      process.execPath,
      [
        '-r',
        '@backstage/cli/config/nodeTransform.cjs',
        'test/bench/retrieval.ts',
        ...['--sizes', '400', '--queries', '3', '--large-queries', '3'],
        ...['--ingest-pages', '15', '--skip-tiny', '--out', out],
      ],
      { cwd: root, env, timeout: 540_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const report = JSON.parse(
      fs.readFileSync(path.join(out, 'retrieval.json'), 'utf8'),
    );

    const [ingestion] = report.ingestion;
    expect(ingestion.pages).toBeGreaterThan(0);
    expect(ingestion.errors).toBe(0);
    expect(ingestion.pagesPerSecond).toBeGreaterThan(0);

    const [size] = report.sizes;
    expect(size.chunks).toBe(400);
    // Documents of 10 chunks go round-robin over 100 entities; the filtered user owns one of
    // them, so at 400 chunks (40 documents) it sees one document.
    expect(size.visibleFiltered).toBe(10);
    for (const key of [
      'hybrid/all',
      'hybrid/filtered',
      'keyword/all',
      'vector/filtered',
    ]) {
      expect(size.latency[key].n).toBe(3);
      expect(size.latency[key].p95).toBeGreaterThanOrEqual(
        size.latency[key].p50,
      );
    }
    // So few visible chunks: the product's path searches exactly, recall 1.
    expect(size.ann['filtered@10'].productRecall).toBe(1);
    expect(size.ann['all@10'].recall).toBeGreaterThan(0);
    // The lists score every matching chunk, as the replaced row scoring did: same top 10.
    for (const filter of ['all', 'filtered']) {
      expect(size.agreement[filter].keywordTop10Overlap).toBe(1);
      expect(size.agreement[filter].dfEqualToPostingsCount).toBeGreaterThan(
        0.9,
      );
    }
    expect(size.bytesPerChunk).toBeGreaterThan(1000);
    // Both layouts measured in the same run; the lists hold the same keys in less space.
    expect(size.keywordBytesPerChunk.rows).toBeGreaterThan(0);
    expect(size.keywordBytesPerChunk.lists).toBeGreaterThan(0);
    expect(size.keywordBytesPerChunk.lists).toBeLessThan(
      size.keywordBytesPerChunk.rows,
    );
  }, 600_000);
});
