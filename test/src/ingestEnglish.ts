import { Entity } from '@backstage/catalog-model';
import { AskDocsStore } from '../../plugins/ask-docs-backend/src/database/AskDocsStore';
import { Embedder } from '../../plugins/ask-docs-backend/src/embedding';
import { Ingester } from '../../plugins/ask-docs-backend/src/ingestion/Ingester';
import { TechDocsReader } from '../../plugins/ask-docs-backend/src/ingestion/sources';
import { Analyzers } from '../../plugins/ask-docs-backend/src/language';
import { StaticEntitySource } from './fileTechDocsReader';
import { quietLogger } from './quietLogger';

/** One manual run of the real Ingester, without a backend: English only, logging nothing. */
export function ingestEnglish(options: {
  store: AskDocsStore;
  entities: Entity[];
  techdocs: TechDocsReader;
  embedder: Embedder;
  analyzers: Analyzers;
}) {
  return new Ingester({
    ...options,
    entities: new StaticEntitySource(options.entities),
    languages: ['en'],
    logger: quietLogger(),
  }).run('manual');
}
