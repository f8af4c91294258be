/**
 * Shared types, permissions and citation parsing for the Ask the docs plugins.
 *
 * @packageDocumentation
 */
export * from './types';
export * from './permissions';
export * from './citations';
export * from './scope';
