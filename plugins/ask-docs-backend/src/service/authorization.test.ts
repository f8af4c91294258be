import { mockCredentials } from '@backstage/backend-test-utils';
import { Config, ConfigReader } from '@backstage/config';
import { JsonValue } from '@backstage/types';
import { NotAllowedError } from '@backstage/errors';
import {
  askDocsAskPermission,
  askDocsAuditReadPermission,
  askDocsIngestionRunPermission,
} from '@askdocs/plugin-ask-docs-common';
import { AskDocsAuthorizer } from './authorization';
import { readAskDocsConfig } from '../settings';
import { fakePermissions, userRefOf } from '../testUtils/fakePermissions';

/** Users get `userDecision`; services what their accessRestrictions allow, as in Backstage. */
const backstageLikePermissions = (
  userDecision: (name: string, user: string) => 'ALLOW' | 'DENY',
) =>
  fakePermissions(credentials => ({
    basic: name => userDecision(name, userRefOf(credentials) ?? ''),
  }));

const readServiceGrants = (c: Config) =>
  readAskDocsConfig(c).permissions.services;
const config = (services: JsonValue) =>
  new ConfigReader({ askDocs: { permissions: { services } } });
const onlyAdminAudits = (name: string, user: string) =>
  name === 'ask-docs.ask' || user === 'user:default/admin' ? 'ALLOW' : 'DENY';
/** Users as onlyAdminAudits says; services what `askDocs.permissions.services` grants them. */
const authorizerGranting = (services: JsonValue) =>
  new AskDocsAuthorizer(
    backstageLikePermissions(onlyAdminAudits),
    readServiceGrants(config(services)),
  );

describe('AskDocsAuthorizer', () => {
  it('lets the permission framework decide for users', async () => {
    const authz = new AskDocsAuthorizer(
      backstageLikePermissions(onlyAdminAudits),
    );
    const admin = mockCredentials.user('user:default/admin');
    const alice = mockCredentials.user('user:default/alice');
    expect(await authz.isAllowed(askDocsAuditReadPermission, admin)).toBe(true);
    expect(await authz.isAllowed(askDocsIngestionRunPermission, admin)).toBe(
      true,
    );
    expect(await authz.isAllowed(askDocsAuditReadPermission, alice)).toBe(
      false,
    );
    expect(await authz.isAllowed(askDocsIngestionRunPermission, alice)).toBe(
      false,
    );
    expect(await authz.isAllowed(askDocsAskPermission, alice)).toBe(true);
  });

  it('gives no service an administrative permission just because Backstage allows it', async () => {
    const permissions = backstageLikePermissions(onlyAdminAudits);
    const authz = new AskDocsAuthorizer(permissions);
    const ci = mockCredentials.service('external:ci-bot');
    expect(await authz.isAllowed(askDocsAuditReadPermission, ci)).toBe(false);
    expect(await authz.isAllowed(askDocsIngestionRunPermission, ci)).toBe(
      false,
    );
    // Asking stays with the framework (a service sees no documents anyway).
    expect(await authz.isAllowed(askDocsAskPermission, ci)).toBe(true);
  });

  it('gives a service exactly the administrative permissions granted to its subject', async () => {
    const authz = authorizerGranting([
      { subject: 'external:ci-bot', permissions: ['ask-docs.ingestion.run'] },
      {
        subject: 'plugin:audit-exporter',
        permissions: ['ask-docs.audit.read'],
      },
    ]);
    const ci = mockCredentials.service('external:ci-bot');
    const exporter = mockCredentials.service('plugin:audit-exporter');
    expect(await authz.isAllowed(askDocsIngestionRunPermission, ci)).toBe(true);
    expect(await authz.isAllowed(askDocsAuditReadPermission, ci)).toBe(false);
    expect(await authz.isAllowed(askDocsAuditReadPermission, exporter)).toBe(
      true,
    );
    expect(await authz.isAllowed(askDocsIngestionRunPermission, exporter)).toBe(
      false,
    );
    expect(
      await authz.isAllowed(
        askDocsIngestionRunPermission,
        mockCredentials.service('plugin:other'),
      ),
    ).toBe(false);
  });

  it('still applies externalAccess accessRestrictions to a granted service', async () => {
    const authz = authorizerGranting([
      { subject: 'external:ci-bot', permissions: ['ask-docs.ingestion.run'] },
    ]);
    const restricted = mockCredentials.service('external:ci-bot', {
      permissionNames: ['catalog.entity.read'],
    });
    expect(
      await authz.isAllowed(askDocsIngestionRunPermission, restricted),
    ).toBe(false);
  });

  it('decides a plugin calling on behalf of a user as that user', async () => {
    const authz = authorizerGranting([
      { subject: 'plugin:scaffolder', permissions: ['ask-docs.audit.read'] },
    ]);
    // What the auth service makes of an on-behalf-of token: the user, with the plugin as actor.
    const obo = mockCredentials.user('user:default/alice', {
      actor: { subject: 'plugin:scaffolder' },
    });
    // Not the plugin's grant: alice is no auditor...
    expect(await authz.isAllowed(askDocsAuditReadPermission, obo)).toBe(false);
    // ...but what alice may do, she may do through the plugin; and the admin's audit right too.
    expect(await authz.isAllowed(askDocsAskPermission, obo)).toBe(true);
    const adminViaPlugin = mockCredentials.user('user:default/admin', {
      actor: { subject: 'plugin:scaffolder' },
    });
    expect(
      await authz.isAllowed(askDocsAuditReadPermission, adminViaPlugin),
    ).toBe(true);
  });

  it('denies when the permission service fails and for principals that are neither', async () => {
    const failing = fakePermissions({ fail: new Error('down') });
    const authz = new AskDocsAuthorizer(failing);
    expect(
      await authz.isAllowed(askDocsAskPermission, mockCredentials.user()),
    ).toBe(false);
    await expect(
      authz.require(askDocsAskPermission, mockCredentials.user(), 'no'),
    ).rejects.toThrow(NotAllowedError);
    const open = new AskDocsAuthorizer(backstageLikePermissions(() => 'ALLOW'));
    expect(
      await open.isAllowed(askDocsAskPermission, mockCredentials.none()),
    ).toBe(false);
  });
});

describe('readServiceGrants', () => {
  it('is empty without config and merges repeated subjects', () => {
    expect(readServiceGrants(new ConfigReader({})).size).toBe(0);
    const grants = readServiceGrants(
      config([
        { subject: 'external:ci-bot', permissions: ['ask-docs.ingestion.run'] },
        { subject: 'external:ci-bot', permissions: ['ask-docs.audit.read'] },
      ]),
    );
    expect([...grants.get('external:ci-bot')!].sort()).toEqual([
      'ask-docs.audit.read',
      'ask-docs.ingestion.run',
    ]);
  });

  it('refuses unknown permission names and empty subjects with a clear error', () => {
    expect(() =>
      readServiceGrants(
        config([
          { subject: 'external:ci-bot', permissions: ['ask-docs.admin'] },
        ]),
      ),
    ).toThrow(
      /"ask-docs.admin" for external:ci-bot is not one of ask-docs.audit.read, ask-docs.ingestion/,
    );
    expect(() =>
      readServiceGrants(config([{ subject: ' ', permissions: [] }])),
    ).toThrow(/subject must not be empty/);
    expect(() => readServiceGrants(config([{ permissions: [] }]))).toThrow(
      /subject/,
    );
  });
});
