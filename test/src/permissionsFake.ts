import { BackstageCredentials, PermissionsService } from '@backstage/backend-plugin-api';
import { AuthorizeResult, PermissionCriteria, PermissionCondition } from '@backstage/plugin-permission-common';

/** How the fake policy answers ask-docs.chunk.read; catalog.entity.read is always allowed. */
export type ChunkReadDecision = 'ALLOW' | { conditions: PermissionCriteria<PermissionCondition> };

/**
 * A PermissionsService for scripts and suites outside jest mocks: `authorize` allows, and
 * `authorizeConditional` returns `chunk` for the chunk read permission and ALLOW for the catalog.
 */
export function fakePermissionsService(chunk: ChunkReadDecision = 'ALLOW'): PermissionsService {
  return {
    async authorize(requests) {
      return requests.map(() => ({ result: AuthorizeResult.ALLOW }));
    },
    async authorizeConditional(requests) {
      return requests.map(r => {
        if (r.permission.name !== 'ask-docs.chunk.read' || chunk === 'ALLOW') return { result: AuthorizeResult.ALLOW };
        return {
          result: AuthorizeResult.CONDITIONAL,
          pluginId: 'ask-docs',
          resourceType: 'ask-docs-chunk',
          conditions: chunk.conditions,
        };
      });
    },
  } as PermissionsService;
}

/** Chunk read limited to entities owned by one of `claims` (ownership refs, e.g. group:default/x). */
export function ownerOnlyDecision(claims: string[]): ChunkReadDecision {
  return { conditions: { rule: 'IS_ENTITY_OWNER', resourceType: 'ask-docs-chunk', params: { claims } } };
}

/** Credentials of a signed-in user, shaped as the auth service issues them. */
export function userCredentials(userEntityRef = 'user:default/evaluator'): BackstageCredentials {
  return {
    $$type: '@backstage/BackstageCredentials',
    principal: { type: 'user', userEntityRef },
  } as BackstageCredentials;
}
