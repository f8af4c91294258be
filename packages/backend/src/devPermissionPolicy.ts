import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  PolicyDecision,
  isPermission,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  ASK_DOCS_CHUNK_RESOURCE_TYPE,
  askDocsAdministrativePermissions,
  askDocsChunkReadPermission,
} from '@askdocs/plugin-ask-docs-common';

/**
 * Development policy: documents of entities tagged `restricted` are readable only by their
 * owners; members of team-ask-docs run ingestion and read the answer audit log. Everything else
 * is allowed.
 */
export class DevPermissionPolicy implements PermissionPolicy {
  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    const claims = user?.info.ownershipEntityRefs ?? [];
    if (isPermission(request.permission, askDocsChunkReadPermission)) {
      return {
        result: AuthorizeResult.CONDITIONAL,
        pluginId: 'ask-docs',
        resourceType: ASK_DOCS_CHUNK_RESOURCE_TYPE,
        conditions: {
          anyOf: [
            {
              not: {
                rule: 'HAS_TAG',
                resourceType: ASK_DOCS_CHUNK_RESOURCE_TYPE,
                params: { tag: 'restricted' },
              },
            },
            {
              rule: 'IS_ENTITY_OWNER',
              resourceType: ASK_DOCS_CHUNK_RESOURCE_TYPE,
              params: { claims },
            },
          ],
        },
      };
    }
    if (
      askDocsAdministrativePermissions.some(p =>
        isPermission(request.permission, p),
      )
    ) {
      return {
        result: claims.includes('group:default/team-ask-docs')
          ? AuthorizeResult.ALLOW
          : AuthorizeResult.DENY,
      };
    }
    return { result: AuthorizeResult.ALLOW };
  }
}

export default createBackendModule({
  pluginId: 'permission',
  moduleId: 'ask-docs-dev-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy(new DevPermissionPolicy());
      },
    });
  },
});
