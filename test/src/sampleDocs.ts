import { Entity } from '@backstage/catalog-model';
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parseAllDocuments } from 'yaml';
import { withOwnerRelations } from './fileTechDocsReader';

const root = path.resolve(__dirname, '../..');

/**
 * The dev portal's sample TechDocs, built into a fresh folder, and the sample Components of
 * examples/entities.yaml as the catalog would return them. The caller removes `publishDir`.
 */
export function buildSampleDocs(prefix: string): {
  publishDir: string;
  entities: Entity[];
} {
  const publishDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  execFileSync(
    process.execPath,
    [path.join(root, 'scripts/build-sample-docs.mjs'), publishDir],
    { stdio: 'ignore' },
  );
  const entities = parseAllDocuments(
    fs.readFileSync(path.join(root, 'examples/entities.yaml'), 'utf8'),
  )
    .map(d => d.toJSON() as Entity)
    .filter(e => e.kind === 'Component')
    .map(e =>
      withOwnerRelations({
        ...e,
        metadata: {
          ...e.metadata,
          namespace: 'default',
          etag: `etag-${e.metadata.name}`,
        },
      }),
    );
  return { publishDir, entities };
}
