import { BackstageCredentials, PermissionsService } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  PermissionCriteria,
  PermissionCondition,
} from '@backstage/plugin-permission-common';

/** How the fake policy answers ask-docs.chunk.read; catalog.entity.read is always allowed. */
export type ChunkReadDecision = 'ALLOW' | { conditions: PermissionCriteria<PermissionCondition> };

/**
 * One answer to a conditional query: ALLOW, DENY, a conditional decision (`pluginId` and
 * `resourceType` default to the permission's own; override them to fake a foreign decision),
 * or `response`: sent verbatim, for malformed answers such as `{ result: 'MAYBE' }`.
 */
export type FakeDecision =
  | 'ALLOW'
  | 'DENY'
  | { conditions: unknown; pluginId?: string; resourceType?: string }
  | { response: unknown };

/** What the fake policy decides for one principal. */
export interface FakePolicy {
  /** ask-docs.chunk.read (default ALLOW). */
  chunk?: FakeDecision;
  /** catalog.entity.read (default ALLOW). */
  catalog?: FakeDecision;
  /** Basic permissions by name (ask-docs.ask, ask-docs.admin, ...); ALLOW when absent. */
  basic?: Record<string, 'ALLOW' | 'DENY'>;
  /** The permission service is down for this principal: every call throws. */
  fail?: boolean;
}

const OWN_RESOURCE: Record<string, { pluginId: string; resourceType: string }> = {
  'ask-docs.chunk.read': { pluginId: 'ask-docs', resourceType: 'ask-docs-chunk' },
  'catalog.entity.read': { pluginId: 'catalog', resourceType: 'catalog-entity' },
};

function toResponse(permission: string, decision: FakeDecision = 'ALLOW'): unknown {
  if (decision === 'ALLOW') return { result: AuthorizeResult.ALLOW };
  if (decision === 'DENY') return { result: AuthorizeResult.DENY };
  if ('response' in decision) return decision.response;
  const own = OWN_RESOURCE[permission] ?? { pluginId: 'unknown', resourceType: 'unknown' };
  return {
    result: AuthorizeResult.CONDITIONAL,
    pluginId: decision.pluginId ?? own.pluginId,
    resourceType: decision.resourceType ?? own.resourceType,
    conditions: decision.conditions,
  };
}

/**
 * A PermissionsService whose decisions a test scripts per principal (and may change between
 * calls): `decide` is asked on every call, so a suite can narrow a user's policy mid-run.
 * Other resource permissions are allowed, as the fake always did.
 */
export function scriptedPermissionsService(
  decide: (credentials: BackstageCredentials) => FakePolicy,
): PermissionsService {
  const policyOf = (options?: { credentials: BackstageCredentials }) => {
    const policy = decide(options?.credentials as BackstageCredentials);
    if (policy.fail) throw new Error('permission backend unavailable (fake)');
    return policy;
  };
  return {
    async authorize(requests: any[], options?: { credentials: BackstageCredentials }) {
      const policy = policyOf(options);
      return requests.map(r => ({
        result: AuthorizeResult[policy.basic?.[r.permission.name] ?? 'ALLOW'],
      }));
    },
    async authorizeConditional(requests: any[], options?: { credentials: BackstageCredentials }) {
      const policy = policyOf(options);
      return requests.map(r => {
        const name: string = r.permission.name;
        if (name === 'ask-docs.chunk.read') return toResponse(name, policy.chunk);
        if (name === 'catalog.entity.read') return toResponse(name, policy.catalog);
        return { result: AuthorizeResult.ALLOW };
      });
    },
  } as unknown as PermissionsService;
}

/**
 * A PermissionsService for scripts and suites outside jest mocks: `authorize` allows, and
 * `authorizeConditional` returns `chunk` for the chunk read permission and ALLOW for the catalog.
 */
export function fakePermissionsService(chunk: ChunkReadDecision = 'ALLOW'): PermissionsService {
  return scriptedPermissionsService(() => ({ chunk }));
}

/** Chunk read limited to entities owned by one of `claims` (ownership refs: group:default/x). */
export function ownerOnlyDecision(claims: string[]): ChunkReadDecision {
  return {
    conditions: { rule: 'IS_ENTITY_OWNER', resourceType: 'ask-docs-chunk', params: { claims } },
  };
}

/** Credentials of a signed-in user, shaped as the auth service issues them. */
export function userCredentials(userEntityRef = 'user:default/evaluator'): BackstageCredentials {
  return {
    $$type: '@backstage/BackstageCredentials',
    principal: { type: 'user', userEntityRef },
  } as BackstageCredentials;
}
