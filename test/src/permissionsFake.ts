/*
 * The permission fake lives with the backend plugin (its own tests use it and must not import
 * from test/); the suites, the evaluation and the benchmark take it from here.
 */
import { PermissionsService } from '@backstage/backend-plugin-api';
import {
  ChunkReadDecision,
  fakePermissions,
} from '../../plugins/ask-docs-backend/src/testUtils/fakePermissions';

export * from '../../plugins/ask-docs-backend/src/testUtils/fakePermissions';

/** For scripts: basic permissions allowed, `chunk` for the chunk read, the catalog allowed. */
export function fakePermissionsService(
  chunk: ChunkReadDecision = 'ALLOW',
): PermissionsService {
  return fakePermissions({ chunk });
}
