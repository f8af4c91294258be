import { mockCredentials } from '@backstage/backend-test-utils';
import { resolveVisibility, Visibility } from '../permissions/visibility';
import { fakePermissions, FakePolicy } from './fakePermissions';

/** What retrieval is given for one user whom the fake policy decides for. */
export function fakeVisibility(
  policy: FakePolicy = {},
  userRef = 'user:default/someone',
): Promise<Visibility> {
  return resolveVisibility({
    permissions: fakePermissions(policy),
    credentials: mockCredentials.user(userRef),
  });
}
