import type { Entity } from '@backstage/catalog-model';
import { entityScope, followUpScope } from './entityScope';

function entityWith(annotation?: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: 'payments',
      namespace: 'team-a',
      ...(annotation !== undefined
        ? { annotations: { 'backstage.io/techdocs-entity': annotation } }
        : {}),
    },
  };
}

describe('entityScope', () => {
  it("adds the techdocs-entity annotation's ref, lower-cased", () => {
    expect(entityScope(entityWith('System:Team-B/Handbook'))).toEqual({
      entityRefs: ['component:team-a/payments', 'system:team-b/handbook'],
    });
  });

  it('reads a ref without namespace as the TechDocs plugin does (default)', () => {
    expect(entityScope(entityWith('component:shared-docs'))).toEqual({
      entityRefs: [
        'component:team-a/payments',
        'component:default/shared-docs',
      ],
    });
  });

  it('ignores an annotation the TechDocs plugin cannot parse either', () => {
    for (const value of ['shared-docs', '', 'component:']) {
      expect(entityScope(entityWith(value))).toEqual({
        entityRefs: ['component:team-a/payments'],
      });
    }
  });

  it('names the entity once when the annotation points at itself', () => {
    expect(entityScope(entityWith('Component:team-a/Payments'))).toEqual({
      entityRefs: ['component:team-a/payments'],
    });
  });
});

describe('followUpScope', () => {
  it('keeps the refs the backend reads as entity refs (in full), nothing when none is left', () => {
    expect(
      followUpScope({
        entityRefs: ['component:default/payments', 'payments', 'api:ledger'],
      }),
    ).toEqual({
      entityRefs: ['component:default/payments', 'api:default/ledger'],
    });
    expect(followUpScope({ entityRefs: ['payments'] })).toBeUndefined();
    expect(followUpScope({ entityRefs: [] })).toBeUndefined();
    expect(followUpScope(undefined)).toBeUndefined();
  });
});

describe('hasTechDocs', () => {
  it('is exported for the legacy entity page, true only for entities with docs', async () => {
    // Imported as an app does, for `<EntitySwitch.Case if={hasTechDocs}>`.
    const { hasTechDocs } = await import('../index');
    expect(hasTechDocs(entityWith('component:shared-docs'))).toBe(true);
    const own = entityWith();
    own.metadata.annotations = { 'backstage.io/techdocs-ref': 'dir:.' };
    expect(hasTechDocs(own)).toBe(true);
    expect(hasTechDocs(entityWith())).toBe(false);
  });
});
