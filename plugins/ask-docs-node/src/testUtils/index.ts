/**
 * Test utilities for backend plugins that ask the docs: an in-memory `askDocsServiceRef`.
 *
 * @packageDocumentation
 */
export { askDocsServiceMock } from './askDocsServiceMock';
export type {
  AskDocsMockAnswer,
  AskDocsServiceMockOptions,
} from './askDocsServiceMock';
