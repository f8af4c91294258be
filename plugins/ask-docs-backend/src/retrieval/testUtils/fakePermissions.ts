import { PermissionsService } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  PermissionCondition,
  PermissionCriteria,
  QueryPermissionResponse,
} from '@backstage/plugin-permission-common';

/** A decision as a permission policy would return it for one of the two read permissions. */
export type FakeDecision =
  | 'ALLOW'
  | 'DENY'
  | {
      conditions: PermissionCriteria<PermissionCondition> | unknown;
      pluginId?: string;
      resourceType?: string;
    };

const toResponse = (
  d: FakeDecision,
  pluginId: string,
  resourceType: string,
): QueryPermissionResponse => {
  if (d === 'ALLOW') return { result: AuthorizeResult.ALLOW };
  if (d === 'DENY') return { result: AuthorizeResult.DENY };
  return {
    result: AuthorizeResult.CONDITIONAL,
    pluginId: d.pluginId ?? pluginId,
    resourceType: d.resourceType ?? resourceType,
    conditions: d.conditions as PermissionCriteria<PermissionCondition>,
  };
};

/**
 * A PermissionsService answering like the permission backend would for a policy that gives
 * `chunk` for ask-docs.chunk.read and `catalog` for catalog.entity.read; `error` makes it throw.
 */
export function fakePermissions(policy: {
  chunk?: FakeDecision;
  catalog?: FakeDecision;
  error?: Error;
}): PermissionsService & {
  calls: string[][];
} {
  const calls: string[][] = [];
  return {
    calls,
    async authorize() {
      throw new Error(
        'fakePermissions: authorize is not expected in retrieval',
      );
    },
    async authorizeConditional(requests) {
      calls.push(requests.map(r => r.permission.name));
      if (policy.error) throw policy.error;
      return requests.map(r => {
        if (r.permission.name === 'ask-docs.chunk.read') {
          return toResponse(
            policy.chunk ?? 'ALLOW',
            'ask-docs',
            'ask-docs-chunk',
          );
        }
        if (r.permission.name === 'catalog.entity.read') {
          return toResponse(
            policy.catalog ?? 'ALLOW',
            'catalog',
            'catalog-entity',
          );
        }
        return { result: AuthorizeResult.DENY };
      });
    },
  };
}

/** Shorthand for a condition leaf. */
export const cond = (
  resourceType: 'ask-docs-chunk' | 'catalog-entity',
  rule: string,
  params: Record<string, unknown>,
) => ({
  rule,
  resourceType,
  params,
});
