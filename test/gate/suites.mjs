// The check suites the test command must run. A suite that is missing, did not run, ran fewer
// tests than expected, skipped any, or lacks a required test file fails the gate.
export const suites = [
  {
    name: 'unit-and-integration',
    description: 'jest over every workspace package (backend on real Postgres+pgvector)',
    command: ['npx', 'backstage-cli', 'repo', 'test', '--watchAll=false', '--json', '--outputFile={out}'],
    kind: 'jest',
    minTests: 100,
    requiredFiles: [
      'migrations.test.ts',
    ],
  },
];
