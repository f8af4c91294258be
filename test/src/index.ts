// Shared helpers of the cross-plugin suites.
export * from './techdocsSite';
