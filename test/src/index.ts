// Shared helpers of the cross-plugin suites.
export * from './techdocsSite';
export * from './fileTechDocsReader';
export * from './quietLogger';
export * from './permissionsFake';
