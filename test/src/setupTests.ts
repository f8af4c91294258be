// Suites here start real databases (PGlite boots in seconds, more under load) and backends.
jest.setTimeout(300_000);
