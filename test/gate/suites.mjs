// The check suites the test command must run. A suite that is missing, did not run, ran fewer
// tests than expected, skipped any, or lacks a required test file fails the gate.
const transform = ['node', '-r', '@backstage/cli/config/nodeTransform.cjs'];

export const suites = [
  {
    name: 'unit-and-integration',
    description: 'jest over every workspace package (backend suites on real Postgres + pgvector)',
    command: ['npx', 'backstage-cli', 'repo', 'test', '--watchAll=false', '--json', '--outputFile={out}'],
    minTests: 560,
    requiredFiles: [
      // foundation
      'plugins/ask-docs-backend/src/database/migrations.test.ts',
      'packages/embedded-db/src/startEmbeddedPostgres.test.ts',
      // knowledge index
      'test/integration/ingestTechDocs.test.ts',
      'plugins/ask-docs-backend/src/language/czechAnalyzer.test.ts',
      'plugins/ask-docs-backend/src/language/englishAnalyzer.test.ts',
      'plugins/ask-docs-backend/src/embedding/TransformersEmbedder.test.ts',
      'plugins/ask-docs-backend/src/database/postingsByEntity.test.ts',
      'plugins/ask-docs-backend/src/ingestion/reanalysis.test.ts',
      'plugins/ask-docs-backend/src/ingestion/parsing/chunkSections.test.ts',
      // permission-scoped retrieval
      'plugins/ask-docs-backend/src/permissions/visibility.test.ts',
      'plugins/ask-docs-backend/src/retrieval/retriever.test.ts',
      'plugins/ask-docs-backend/src/retrieval/fusion.test.ts',
      'plugins/ask-docs-backend/src/service/prepareQuestion.test.ts',
      // answers
      'plugins/ask-docs-backend/src/answer/answerQuestion.test.ts',
      'plugins/ask-docs-backend/src/answer/citations.test.ts',
      'test/integration/askApi.test.ts',
      'plugins/ask-docs-node/src/DefaultAskDocsService.test.ts',
      // evaluation and reliability
      'test/integration/retrievalQuality.test.ts',
      'test/integration/answerQuality.test.ts',
      'test/reliability/permissionLeakFuzz.test.ts',
      'test/reliability/databaseRestart.test.ts',
      'test/reliability/concurrentAsk.test.ts',
      'test/reliability/malformedInput.test.ts',
    ],
  },
  {
    name: 'browser',
    description: 'playwright-core + Debian chromium against the running portal with a fake model',
    command: [...transform, 'test/browser/run.ts', '--result', '{out}'],
    minTests: 3,
    requiredFiles: ['test/browser/askDocs.browser.mjs'],
  },
];
