import { portalLink } from './usePortalLink';

const route =
  (base: string) => (p: { namespace: string; kind: string; name: string }) =>
    `${base}/${p.namespace}/${p.kind}/${p.name}`;

describe('portalLink', () => {
  const routes = {
    techdocsReader: route('/tech'),
    entityPage: route('/software'),
  };

  it('rebases a TechDocs page onto the mounted reader, keeping page and anchor', () => {
    expect(
      portalLink(
        '/docs/default/Component/pay%20ments/release/#rollback',
        routes,
      ),
    ).toBe('/tech/default/Component/pay%20ments/release/#rollback');
    expect(portalLink('/docs/default/component/payments', routes)).toBe(
      '/tech/default/component/payments',
    );
  });

  it('rebases an entity page onto the mounted catalog entity route', () => {
    expect(portalLink('/catalog/default/group/team-a', routes)).toBe(
      '/software/default/group/team-a',
    );
  });

  it('keeps the backend url where the route is not mounted', () => {
    const url = '/docs/default/component/payments/release/#rollback';
    expect(portalLink(url, {})).toBe(url);
    expect(portalLink('/catalog/default/group/team-a', {})).toBe(
      '/catalog/default/group/team-a',
    );
  });

  it('keeps the backend url where the mounted route cannot be built', () => {
    // Mounted with a param more than the three the link gives: generatePath throws.
    const needsVersion = () => {
      throw new Error('Missing ":version" param');
    };
    const url = '/docs/default/component/payments/release/#rollback';
    expect(portalLink(url, { techdocsReader: needsVersion })).toBe(url);
  });

  it('leaves other urls alone', () => {
    for (const url of [
      'https://example.com/docs/a/b/c',
      '/docs/too/short',
      '/documentation/default/component/payments/',
    ]) {
      expect(portalLink(url, routes)).toBe(url);
    }
  });
});
