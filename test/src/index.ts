// Shared helpers of the cross-plugin suites.
export * from './techdocsSite';
export * from './fakeModelBehaviours';
export * from './fileTechDocsReader';
export * from './ingestEnglish';
export * from './permissionsFake';
export * from './quietLogger';
export * from './startAskBackend';
export {
  bufferText,
  parseEvents,
} from '../../plugins/ask-docs-backend/src/testUtils/http';
export * from './sampleDocs';
