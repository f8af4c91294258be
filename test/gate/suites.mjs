// The check suites the test command must run. A suite that is missing, did not run, ran fewer
// tests than expected, skipped any, or lacks a required test file fails the gate.
const transform = ['node', '-r', '@backstage/cli/config/nodeTransform.cjs'];

export const suites = [
  {
    name: 'unit-and-integration',
    description:
      'jest over every workspace package (backend suites on real Postgres + pgvector)',
    command: [
      'npx',
      'backstage-cli',
      'repo',
      'test',
      '--watchAll=false',
      '--json',
      '--outputFile={out}',
    ],
    minTests: 560,
    requiredFiles: [
      // foundation
      'plugins/ask-docs-backend/src/database/migrations.test.ts',
      'plugins/ask-docs-backend/src/database/requirePostgres.test.ts',
      'plugins/ask-docs-backend/src/embedding/loadTransformers.test.ts',
      'test/adopter/readmeSteps.test.ts',
      'packages/app/src/modules/HomePage.test.tsx',
      'packages/app/src/modules/searchPageModule.test.tsx',
      'plugins/ask-docs/src/components/TechDocsAskAddon/TechDocsAskAddon.test.tsx',
      'plugins/ask-docs/src/components/SearchAnswerCard/stockSearchPage.test.tsx',
      'packages/embedded-db/src/startEmbeddedPostgres.test.ts',
      'packages/embedded-db/src/authentication.test.ts',
      // knowledge index
      'test/integration/ingestTechDocs.test.ts',
      'plugins/ask-docs-backend/src/language/czechAnalyzer.test.ts',
      'plugins/ask-docs-backend/src/language/englishAnalyzer.test.ts',
      'plugins/ask-docs-backend/src/language/hunspell.test.ts',
      'plugins/ask-docs-backend/src/language/hunspellReader/reader.test.ts',
      'plugins/ask-docs-backend/src/language/hunspellReader/equivalence.test.ts',
      'plugins/ask-docs-backend/src/embedding/TransformersEmbedder.test.ts',
      'plugins/ask-docs-backend/src/database/postingsByEntity.test.ts',
      'plugins/ask-docs-backend/src/retrieval/keywordCandidates.test.ts',
      'plugins/ask-docs-backend/src/testUtils/fakePermissions.test.ts',
      'plugins/ask-docs-backend/src/service/IngestionController.test.ts',
      'plugins/ask-docs-backend/src/language/czechDerivation.test.ts',
      'test/integration/retrievalBenchmark.test.ts',
      'plugins/ask-docs-backend/src/ingestion/reanalysis.test.ts',
      'plugins/ask-docs-backend/src/ingestion/parsing/chunkSections.test.ts',
      // security (issue 14)
      'plugins/ask-docs-backend/src/ingestion/sitePagePath.test.ts',
      'plugins/ask-docs-backend/src/ingestion/siteConfinement.test.ts',
      'test/src/fileTechDocsReader.test.ts',
      // permission-scoped retrieval
      'plugins/ask-docs-backend/src/permissions/visibility.test.ts',
      'plugins/ask-docs-backend/src/permissions/caseFolding.test.ts',
      'plugins/ask-docs-backend/src/ingestion/attributeSync.test.ts',
      'plugins/ask-docs-backend/src/database/chunkVersionRetention.test.ts',
      'plugins/ask-docs-backend/src/settings.test.ts',
      'plugins/ask-docs-backend/src/retrieval/retriever.test.ts',
      'plugins/ask-docs-backend/src/retrieval/fusion.test.ts',
      'plugins/ask-docs-backend/src/retrieval/evidence.test.ts',
      'plugins/ask-docs-backend/src/service/prepareQuestion.test.ts',
      'plugins/ask-docs-backend/src/service/QuestionPipeline.test.ts',
      // answers
      'plugins/ask-docs-backend/src/answer/answerQuestion.test.ts',
      'plugins/ask-docs-backend/src/answer/citations.test.ts',
      'plugins/ask-docs-backend/src/service/authorization.test.ts',
      'plugins/ask-docs-backend/src/service/router.test.ts',
      'plugins/ask-docs-backend/src/retrieval/typoBounds.test.ts',
      'test/integration/answerAccess.test.ts',
      'test/integration/askStreamSafety.test.ts',
      'test/integration/askApi.test.ts',
      'test/integration/mcpActions.test.ts',
      'test/integration/askThread.test.ts',
      'test/integration/sampleDocsAnswerability.test.ts',
      'plugins/ask-docs-backend/src/service/openapiDrift.test.ts',
      'plugins/ask-docs-node/src/DefaultAskDocsService.test.ts',
      // evaluation and reliability
      'test/integration/retrievalQuality.test.ts',
      'test/integration/answerQuality.test.ts',
      'test/integration/evalItems.test.ts',
      'test/reliability/permissionLeakFuzz.test.ts',
      'test/reliability/permissionLeakFuzzPaths.test.ts',
      'test/reliability/databaseRestart.test.ts',
      'test/reliability/concurrentAsk.test.ts',
      'test/reliability/malformedInput.test.ts',
    ],
  },
  {
    name: 'browser',
    description:
      'playwright-core + Debian chromium against the running portal with a fake model',
    command: [...transform, 'test/browser/run.ts', '--result', '{out}'],
    minTests: 5,
    requiredFiles: ['test/browser/askDocs.browser.mjs'],
  },
  {
    name: 'adopter',
    description:
      'a stock create-app Backstage app installs the packed tarballs by the READMEs, on SQLite (refused) and embedded Postgres',
    command: [...transform, 'test/adopter/run.ts', '--result', '{out}'],
    minTests: 10,
    requiredFiles: ['test/adopter/run.ts'],
  },
];
