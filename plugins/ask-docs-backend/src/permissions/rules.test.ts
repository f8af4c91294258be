import express from 'express';
import request from 'supertest';
import {
  createConditionTransformer,
  createPermissionIntegrationRouter,
} from '@backstage/plugin-permission-node';
import { askDocsChunkReadPermission } from '@askdocs/plugin-ask-docs-common';
import { AskDocsEntityAttributes } from './entityFilter';
import {
  askDocsChunkConditions,
  askDocsChunkResourceRef,
  askDocsChunkRules,
  createAskDocsChunkConditionalDecision,
} from './rules';

const entity = (
  ref: string,
  extra: Partial<AskDocsEntityAttributes>,
): AskDocsEntityAttributes => ({
  entityRef: ref,
  kind: 'Component',
  namespace: 'default',
  name: ref.split('/')[1],
  title: ref,
  owners: [],
  tags: [],
  labels: {},
  annotations: {},
  spec: {},
  ...extra,
});

const resources: Record<string, AskDocsEntityAttributes> = {
  'component:default/a': entity('component:default/a', {
    owners: ['group:default/x'],
    tags: ['public'],
  }),
  'component:default/b': entity('component:default/b', {
    labels: { Tier: 'Gold' },
  }),
  // Exists, and matches neither condition: another owner, another label value.
  'component:default/c': entity('component:default/c', {
    owners: ['group:default/y'],
    labels: { tier: 'silver' },
  }),
};

// The same registration plugin.ts performs through PermissionsRegistryService.addResourceType,
// which is backed by this integration store.
function app() {
  const router = createPermissionIntegrationRouter({
    resources: [
      {
        resourceType: askDocsChunkResourceRef.resourceType,
        permissions: [askDocsChunkReadPermission],
        rules: askDocsChunkRules,
        getResources: async refs => refs.map(r => resources[r]),
      },
    ],
  });
  return { app: express().use(router), router };
}

describe('ask-docs-chunk permission rules', () => {
  it('register with the permission framework and publish their parameter schemas', async () => {
    const res = await request(app().app).get(
      '/.well-known/backstage/permissions/metadata',
    );
    expect(res.status).toBe(200);
    const rules = res.body.rules as Array<{
      name: string;
      resourceType: string;
      paramsSchema: any;
    }>;
    expect(rules.map(r => r.name).sort()).toEqual(
      [
        'HAS_ANNOTATION',
        'HAS_LABEL',
        'HAS_TAG',
        'IS_ENTITY_KIND',
        'IS_ENTITY_OWNER',
        'IS_IN_NAMESPACE',
      ].sort(),
    );
    expect(rules.every(r => r.resourceType === 'ask-docs-chunk')).toBe(true);
    expect(rules.find(r => r.name === 'HAS_LABEL')!.paramsSchema).toMatchObject(
      {
        type: 'object',
        additionalProperties: false,
        required: ['label'],
        properties: { label: { type: 'string' }, value: { type: 'string' } },
      },
    );
  });

  it('apply() decides single resources through the framework (apply-conditions)', async () => {
    const decision = createAskDocsChunkConditionalDecision(
      askDocsChunkReadPermission,
      {
        anyOf: [
          askDocsChunkConditions.isEntityOwner({ claims: ['group:default/x'] }),
          askDocsChunkConditions.hasLabel({ label: 'tier', value: 'gold' }),
        ],
      },
    );
    const res = await request(app().app)
      .post('/.well-known/backstage/permissions/apply-conditions')
      .send({
        items: [
          'component:default/a',
          'component:default/b',
          'component:default/c',
          'component:default/missing',
        ].map((ref, i) => ({
          id: String(i),
          resourceRef: ref,
          resourceType: 'ask-docs-chunk',
          conditions: decision.conditions,
        })),
      });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { result: string }) => i.result)).toEqual([
      'ALLOW',
      'ALLOW',
      'DENY',
      'DENY',
    ]);
  });

  it('toQuery yields the serialisable filter AST, never SQL', () => {
    const { router } = app();
    const transform = createConditionTransformer(
      router.getPermissionRuleset(askDocsChunkResourceRef),
    );
    expect(
      transform({
        not: askDocsChunkConditions.hasAnnotation({
          annotation: 'backstage.io/techdocs-ref',
        }),
      }),
    ).toEqual({
      not: {
        type: 'hasKey',
        field: 'annotations',
        key: 'backstage.io/techdocs-ref',
      },
    });
    expect(
      transform(askDocsChunkConditions.isInNamespace({ namespaces: ['ops'] })),
    ).toEqual({
      type: 'oneOf',
      field: 'namespace',
      values: ['ops'],
    });
  });

  it('rejects invalid parameters at the framework boundary too', async () => {
    const res = await request(app().app)
      .post('/.well-known/backstage/permissions/apply-conditions')
      .send({
        items: [
          {
            id: '1',
            resourceRef: 'component:default/a',
            resourceType: 'ask-docs-chunk',
            conditions: {
              rule: 'HAS_TAG',
              resourceType: 'ask-docs-chunk',
              params: { tag: 'public', extra: 1 },
            },
          },
        ],
      });
    // The framework throws (no error handler here: a bare 500), rather than evaluating.
    // (400 or 500: not a 404 of a route that does not exist.)
    expect([400, 500]).toContain(res.status);
    expect(res.body.items).toBeUndefined();
  });
});
