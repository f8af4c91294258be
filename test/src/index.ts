// Shared helpers of the cross-plugin suites.
export * from './techdocsSite';
export * from './fakeModelBehaviours';
export * from './fileTechDocsReader';
export * from './permissionsFake';
export * from './quietLogger';
export * from './startAskBackend';
