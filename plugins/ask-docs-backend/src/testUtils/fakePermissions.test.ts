import { mockCredentials } from '@backstage/backend-test-utils';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import {
  AuthorizeResult,
  createPermission,
} from '@backstage/plugin-permission-common';
import {
  askDocsAuditReadPermission,
  askDocsChunkReadPermission,
} from '@askdocs/plugin-ask-docs-common';
import {
  cond,
  fakePermissions,
  restrictedToOwnersDecision,
} from './fakePermissions';

const alice = mockCredentials.user('user:default/alice');
let fake = fakePermissions({});
/** The fake's answer to one conditional query. */
async function conditional(permission: any, credentials: any) {
  const [decision] = await fake.authorizeConditional([{ permission }], {
    credentials,
  });
  return decision;
}

describe('fakePermissions', () => {
  it('answers conditional queries as the permission backend does', async () => {
    fake = fakePermissions({
      chunk: restrictedToOwnersDecision(['group:default/a']),
      catalog: { conditions: cond('catalog-entity', 'HAS_TAG', { tag: 'x' }) },
    });
    expect(await conditional(askDocsChunkReadPermission, alice)).toEqual({
      result: AuthorizeResult.CONDITIONAL,
      pluginId: 'ask-docs',
      resourceType: 'ask-docs-chunk',
      conditions: {
        anyOf: [
          {
            not: {
              rule: 'HAS_TAG',
              resourceType: 'ask-docs-chunk',
              params: { tag: 'restricted' },
            },
          },
          {
            rule: 'IS_ENTITY_OWNER',
            resourceType: 'ask-docs-chunk',
            params: { claims: ['group:default/a'] },
          },
        ],
      },
    });
    expect(await conditional(catalogEntityReadPermission, alice)).toMatchObject(
      {
        result: AuthorizeResult.CONDITIONAL,
        pluginId: 'catalog',
        resourceType: 'catalog-entity',
      },
    );
    expect(fake.calls).toEqual([
      ['ask-docs.chunk.read'],
      ['catalog.entity.read'],
    ]);
  });

  it('sends foreign and malformed decisions as scripted, and DENY when told', async () => {
    fake = fakePermissions({
      chunk: { conditions: {}, pluginId: 'catalog' },
      catalog: { response: { result: 'MAYBE' } },
      otherResources: 'DENY',
    });
    expect(await conditional(askDocsChunkReadPermission, alice)).toMatchObject({
      pluginId: 'catalog',
      resourceType: 'ask-docs-chunk',
    });
    expect(await conditional(catalogEntityReadPermission, alice)).toEqual({
      result: 'MAYBE',
    });
    const other = createPermission({
      name: 'other.read',
      attributes: { action: 'read' },
      resourceType: 'other',
    });
    expect(await conditional(other, alice)).toEqual({
      result: AuthorizeResult.DENY,
    });
  });

  it('asks the policy on every call, and rejects when the backend is down', async () => {
    let down = false;
    const policy = jest.fn(() => ({
      basic: { 'ask-docs.audit.read': 'DENY' as const },
      fail: down,
    }));
    fake = fakePermissions(policy);
    const audit = () =>
      fake.authorize([{ permission: askDocsAuditReadPermission }], {
        credentials: alice,
      });
    expect(await audit()).toEqual([{ result: AuthorizeResult.DENY }]);
    down = true;
    await expect(audit()).rejects.toThrow(/unavailable/);
    expect(policy).toHaveBeenCalledTimes(2);
  });

  it('decides services by their access restrictions, never by the policy', async () => {
    const policy = jest.fn(() => ({ chunk: 'DENY' as const, fail: true }));
    fake = fakePermissions(policy);
    const service = mockCredentials.service('external:ci-bot');
    const restricted = mockCredentials.service('external:ci-bot', {
      permissionNames: ['catalog.entity.read'],
    });
    expect(await conditional(askDocsChunkReadPermission, service)).toEqual({
      result: AuthorizeResult.ALLOW,
    });
    expect(await conditional(askDocsChunkReadPermission, restricted)).toEqual({
      result: AuthorizeResult.DENY,
    });
    expect(await conditional(catalogEntityReadPermission, restricted)).toEqual({
      result: AuthorizeResult.ALLOW,
    });
    expect(policy).not.toHaveBeenCalled();
  });
});
