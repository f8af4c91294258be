import { mockServices } from '@backstage/backend-test-utils';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { catalogComponent } from '../testUtils/catalogComponent';
import { CatalogEntitySource } from './catalogEntitySource';
import { entityRow } from './entityRow';

/*
 * An ingestion run hands out a catalog page's entities one at a time, each after the previous
 * one's pages are ingested; by an entity's turn its page may be minutes old. The rest of a page
 * older than the bound is read again, so attributes that changed (or an entity deleted) since
 * are not written from the old read.
 */
const component = (name: string, owner: string): Entity =>
  catalogComponent(name, { owner, type: 'service' });

function fakeCatalog(pages: Entity[][]) {
  /** The catalog as it is now; getEntitiesByRefs reads it. */
  const current = new Map<string, Entity>();
  for (const e of pages.flat()) current.set(stringifyEntityRef(e), e);
  const byRefs = jest.fn(async ({ entityRefs }: { entityRefs: string[] }) => ({
    items: entityRefs.map(ref => current.get(ref)),
  }));
  const catalog = {
    async queryEntities(request: { cursor?: string }) {
      const page = Number(request.cursor ?? 0);
      return {
        items: pages[page],
        pageInfo:
          page + 1 < pages.length ? { nextCursor: String(page + 1) } : {},
        totalItems: pages.flat().length,
      };
    },
    getEntitiesByRefs: byRefs,
  } as unknown as CatalogService;
  return { catalog, current, byRefs };
}

describe('CatalogEntitySource', () => {
  it('reads the rest of a page again once it is older than the bound', async () => {
    const { catalog, current, byRefs } = fakeCatalog([
      [
        component('a', 'group:default/team-a'),
        component('b', 'group:default/team-a'),
        component('c', 'group:default/team-a'),
      ],
      [component('d', 'group:default/team-a')],
    ]);
    let clock = 0;
    const source = new CatalogEntitySource(
      catalog,
      mockServices.auth(),
      undefined,
      { maxAgeMs: 30_000, now: () => clock },
    );
    const handedOut: Entity[] = [];
    for await (const entity of source.listEntities()) {
      handedOut.push(entity);
      if (entity.metadata.name === 'a') {
        // The first entity took a while; meanwhile b's owner changed and c was deleted.
        clock += 31_000;
        current.set(
          'component:default/b',
          component('b', 'group:default/team-b'),
        );
        current.delete('component:default/c');
      }
    }
    expect(handedOut.map(e => e.metadata.name)).toEqual(['a', 'b', 'd']);
    expect(entityRow(handedOut[1]).owners).toEqual(['group:default/team-b']);
    // One read of the rest of the first page; the second page was fresh.
    expect(byRefs).toHaveBeenCalledTimes(1);
    expect(byRefs.mock.calls[0][0].entityRefs).toEqual([
      'component:default/b',
      'component:default/c',
    ]);
  });

  it('hands out a page as read while it is younger than the bound', async () => {
    const { catalog, current, byRefs } = fakeCatalog([
      [
        component('a', 'group:default/team-a'),
        component('b', 'group:default/team-a'),
      ],
    ]);
    const source = new CatalogEntitySource(
      catalog,
      mockServices.auth(),
      undefined,
      {
        maxAgeMs: 30_000,
        now: () => 0,
      },
    );
    const names: string[] = [];
    for await (const entity of source.listEntities()) {
      names.push(entity.metadata.name);
      current.delete('component:default/b'); // unseen: the page is not old
    }
    expect(names).toEqual(['a', 'b']);
    expect(byRefs).not.toHaveBeenCalled();
  });
});
