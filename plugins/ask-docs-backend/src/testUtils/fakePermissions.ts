/*
 * The one permission fake of the repository (plugin tests, integration suites, eval and bench).
 * It answers as Backstage's permission service does with a policy behind it: service principals
 * are decided by their externalAccess accessRestrictions alone (as ServerPermissionClient does,
 * without asking the policy); everyone else gets the scripted policy, whose answers to
 * conditional queries are real decisions (ALLOW, DENY or CONDITIONAL with pluginId,
 * resourceType and a criteria tree), or deliberately malformed ones.
 */
import {
  BackstageCredentials,
  BackstageServicePrincipal,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  Permission,
  PermissionCondition,
  PermissionCriteria,
} from '@backstage/plugin-permission-common';
import { resolveVisibility, Visibility } from '../permissions/visibility';

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

/** How a policy answers ask-docs.chunk.read in the common cases. */
export type ChunkReadDecision =
  | 'ALLOW'
  | { conditions: PermissionCriteria<PermissionCondition> };

/** A definitive decision, as a string or as the framework's enum. */
type Definitive =
  | 'ALLOW'
  | 'DENY'
  | AuthorizeResult.ALLOW
  | AuthorizeResult.DENY;

/** What the fake policy decides for one principal. */
export interface FakePolicy {
  /** ask-docs.chunk.read (default ALLOW). */
  chunk?: FakeDecision;
  /** catalog.entity.read (default ALLOW). */
  catalog?: FakeDecision;
  /** Any other permission asked conditionally (default ALLOW). */
  otherResources?: Definitive;
  /** Basic permissions (ask-docs.ask, ask-docs.admin, ...) by name; ALLOW when absent. */
  basic?: Record<string, Definitive> | ((permissionName: string) => Definitive);
  /** The permission backend is down for this principal: every call rejects (with this error). */
  fail?: boolean | Error;
}

/** The fake, with the permission names of every conditional query it was asked, in order. */
export type FakePermissions = PermissionsService & { calls: string[][] };

const OWN_RESOURCE: Record<string, { pluginId: string; resourceType: string }> =
  {
    'ask-docs.chunk.read': {
      pluginId: 'ask-docs',
      resourceType: 'ask-docs-chunk',
    },
    'catalog.entity.read': {
      pluginId: 'catalog',
      resourceType: 'catalog-entity',
    },
  };

function toResponse(permission: string, decision: FakeDecision): unknown {
  if (decision === 'ALLOW') return { result: AuthorizeResult.ALLOW };
  if (decision === 'DENY') return { result: AuthorizeResult.DENY };
  if ('response' in decision) return decision.response;
  const own = OWN_RESOURCE[permission] ?? {
    pluginId: 'unknown',
    resourceType: 'unknown',
  };
  return {
    result: AuthorizeResult.CONDITIONAL,
    pluginId: decision.pluginId ?? own.pluginId,
    resourceType: decision.resourceType ?? own.resourceType,
    conditions: decision.conditions,
  };
}

/** ServerPermissionClient's answer for a service principal: its access restrictions only. */
function serviceDecision(
  principal: BackstageServicePrincipal,
  permission: Permission,
) {
  const { permissionNames, permissionAttributes } =
    principal.accessRestrictions ?? {};
  const action = permission.attributes?.action;
  const denied =
    (permissionNames && !permissionNames.includes(permission.name)) ||
    (permissionAttributes?.action &&
      (!action || !permissionAttributes.action.includes(action)));
  return { result: denied ? AuthorizeResult.DENY : AuthorizeResult.ALLOW };
}

const basicDecision = (policy: FakePolicy, name: string): Definitive =>
  (typeof policy.basic === 'function'
    ? policy.basic(name)
    : policy.basic?.[name]) ?? 'ALLOW';

/**
 * A PermissionsService for `policy`; a function of the caller's credentials is asked on every
 * call (so a suite can change a user's policy mid-run), never for service principals.
 */
export function fakePermissions(
  policy: FakePolicy | ((credentials: BackstageCredentials) => FakePolicy),
): FakePermissions {
  const calls: string[][] = [];
  const answer = async (
    requests: any[],
    options: { credentials: BackstageCredentials } | undefined,
    conditional: boolean,
  ): Promise<any[]> => {
    if (conditional) calls.push(requests.map(r => r.permission.name));
    const credentials = options?.credentials as BackstageCredentials;
    const principal = credentials?.principal as { type?: string } | undefined;
    if (principal?.type === 'service') {
      return requests.map(r =>
        serviceDecision(principal as BackstageServicePrincipal, r.permission),
      );
    }
    const current = typeof policy === 'function' ? policy(credentials) : policy;
    if (current.fail) {
      throw current.fail instanceof Error
        ? current.fail
        : new Error('permission backend unavailable (fake)');
    }
    return requests.map(r => {
      const name: string = r.permission.name;
      if (!conditional)
        return { result: AuthorizeResult[basicDecision(current, name)] };
      if (name === 'ask-docs.chunk.read')
        return toResponse(name, current.chunk ?? 'ALLOW');
      if (name === 'catalog.entity.read')
        return toResponse(name, current.catalog ?? 'ALLOW');
      return toResponse(name, current.otherResources ?? 'ALLOW');
    });
  };
  return {
    calls,
    authorize: (requests: any[], options?: any) =>
      answer(requests, options, false),
    authorizeConditional: (requests: any[], options?: any) =>
      answer(requests, options, true),
  } as FakePermissions;
}

/** A condition leaf of one of the two read permissions' resource types. */
export const cond = (
  resourceType: 'ask-docs-chunk' | 'catalog-entity',
  rule: string,
  params: Record<string, unknown>,
): PermissionCondition => ({
  rule,
  resourceType,
  params: params as PermissionCondition['params'],
});

/** Chunk read limited to entities owned by one of `claims` (ownership refs: group:default/x). */
export function ownerOnlyDecision(claims: string[]): ChunkReadDecision {
  return { conditions: cond('ask-docs-chunk', 'IS_ENTITY_OWNER', { claims }) };
}

/** What a user who may read only entities owned by one of `claims` sees. */
export function ownerVisibility(claims: string[]): Promise<Visibility> {
  return resolveVisibility({
    permissions: fakePermissions({ chunk: ownerOnlyDecision(claims) }),
    credentials: userCredentials('user:default/someone'),
  });
}

/**
 * The development policy's chunk read decision: documents of entities tagged `restricted` only
 * for their owners (`claims`), everything else for everyone.
 */
export function restrictedToOwnersDecision(
  claims: string[],
): ChunkReadDecision {
  return {
    conditions: {
      anyOf: [
        { not: cond('ask-docs-chunk', 'HAS_TAG', { tag: 'restricted' }) },
        cond('ask-docs-chunk', 'IS_ENTITY_OWNER', { claims }),
      ],
    },
  };
}

/** Credentials of a signed-in user, shaped as the auth service issues them (no jest needed). */
export function userCredentials(
  userEntityRef = 'user:default/evaluator',
): BackstageCredentials {
  return {
    $$type: '@backstage/BackstageCredentials',
    principal: { type: 'user', userEntityRef },
  } as BackstageCredentials;
}

/** The user's entity ref, or undefined for other principals. */
export const userRefOf = (credentials: BackstageCredentials | undefined) =>
  (credentials?.principal as { userEntityRef?: string } | undefined)
    ?.userEntityRef;
