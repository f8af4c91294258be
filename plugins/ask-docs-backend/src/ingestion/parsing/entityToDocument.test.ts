import { Entity } from '@backstage/catalog-model';
import { chunkSections } from './chunkSections';
import { entityToDocument } from './entityToDocument';

const component: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'payments',
    namespace: 'finance',
    title: 'Payments Service',
    description: 'Takes card payments.\n\nRetries failed captures twice.',
    tags: ['java', 'payments'],
    links: [
      { url: 'https://runbooks.example.com/payments', title: 'Runbook' },
      { url: 'https://grafana.example.com/d/1' },
    ],
    annotations: {
      'backstage.io/techdocs-ref': 'dir:.',
      'example.com/deploy-token': 'ghp_verysecretvalue',
    },
    labels: { tier: 'gold' },
  },
  spec: {
    type: 'service',
    owner: 'group:finance/payments-team',
    lifecycle: 'production',
    system: 'checkout',
    providesApis: ['payments-api', 'refunds-api'],
    runtime: { language: 'java', version: 21, flags: { native: false } },
    dependsOn: [{ ref: 'resource:db', optional: true }],
    apiToken: 'sk-live-123',
    password: 'hunter2',
  },
};

describe('entityToDocument', () => {
  it('renders the overview: title, description and key facts', () => {
    const doc = entityToDocument(component);
    expect(doc.title).toBe('Payments Service');
    const overview = doc.sections[0];
    expect(overview).toMatchObject({ anchor: '', headingPath: [], level: 0 });
    expect(overview.text).toContain(
      'Payments Service\n\nTakes card payments.\n\nRetries failed captures twice.',
    );
    for (const line of [
      'Kind: Component',
      'Name: payments',
      'Namespace: finance',
      'Type: service',
      'Owner: group:finance/payments-team',
      'Lifecycle: production',
      'System: checkout',
      'Tags: java, payments',
      'Links: Runbook, https://grafana.example.com/d/1',
    ]) {
      expect(overview.text.split('\n')).toContain(line);
    }
  });

  it('renders the remaining spec as flattened key: value lines in a spec section', () => {
    const doc = entityToDocument(component);
    const spec = doc.sections.find(s => s.anchor === 'spec')!;
    expect(spec.headingPath).toEqual(['Spec']);
    const lines = spec.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'providesApis: payments-api, refunds-api',
        'runtime.language: java',
        'runtime.version: 21',
        'runtime.flags.native: false',
        'dependsOn[0].ref: resource:db',
        'dependsOn[0].optional: true',
      ]),
    );
    // Shown in the overview already.
    expect(lines.some(l => l.startsWith('owner:'))).toBe(false);
  });

  it('leaves out annotations, labels and secret-looking spec fields', () => {
    const doc = entityToDocument(component);
    for (const leak of [
      'ghp_verysecretvalue',
      'techdocs-ref',
      'sk-live-123',
      'hunter2',
      'apiToken',
      'password',
      'gold',
    ]) {
      expect(doc.text).not.toContain(leak);
    }
  });

  it('puts long text fields such as an API definition into sections of their own', () => {
    const definition =
      'openapi: 3.0.0\ninfo:\n  title: Payments API\n\npaths:\n  /charges:\n    post: {}';
    const api: Entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'API',
      metadata: { name: 'payments-api' },
      spec: {
        type: 'openapi',
        owner: 'team-a',
        lifecycle: 'production',
        definition,
      },
    };
    const doc = entityToDocument(api);
    expect(doc.title).toBe('payments-api');
    const def = doc.sections.find(s => s.heading === 'definition')!;
    expect(def.anchor).toBe('spec-definition');
    expect(def.text).toContain('info:\n  title: Payments API');
    expect(doc.sections[0].text).toContain('Namespace: default');
  });

  it('keeps offsets consistent and chunks like a page', () => {
    const doc = entityToDocument(component);
    for (const s of doc.sections)
      expect(doc.text.slice(s.charStart, s.charEnd)).toBe(s.text);
    const chunks = chunkSections(doc, { documentId: 'doc' });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks[0].sectionPath).toBe('Payments Service');
    expect(chunks.find(c => c.anchor === 'spec')!.sectionPath).toBe(
      'Payments Service › Spec',
    );
  });

  it('leaves out embedded files: data: URIs and whole base64 blocks', () => {
    // As the Microsoft Graph provider stores a user's photo.
    const photo = Buffer.alloc(6000, 7).toString('base64');
    const blob = Buffer.alloc(300, 9).toString('base64');
    const minified = `{"paths":{"/charges":{"post":{"operationId":"createCharge"}}}}`;
    // Long, without whitespace, and mostly base64 letters: a link, which stays.
    const runbook = `https://wiki.example.com/Runbook+for+the+payments+${'x'.repeat(
      200,
    )}`;
    // Long, only letters, digits and blanks: prose, which stays.
    const prose = 'Handles payments for card and bank transfers '
      .repeat(5)
      .trim();
    const user: Entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'User',
      metadata: {
        name: 'jdoe',
        description: `Jane. Key data:application/pkcs8;base64,${blob} rotated. ${runbook}`,
      },
      spec: {
        profile: {
          displayName: 'Jane Doe',
          picture: `data:image/jpeg;base64,${photo}`,
          icon: 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%22%3E',
        },
        certificate: blob.match(/.{1,64}/g)!.join('\n'),
        purpose: prose,
        definition: minified.repeat(5),
      },
    };
    const doc = entityToDocument(user);
    const chunks = chunkSections(doc, { documentId: 'doc' });
    for (const c of chunks) {
      expect(c.text).not.toContain('base64');
      expect(c.text).not.toContain('data:');
      expect(c.text).not.toContain(photo.slice(0, 40));
      expect(c.text).not.toContain(blob.slice(0, 40));
    }
    expect(doc.text).toContain('profile.displayName: Jane Doe');
    expect(doc.text).toContain('Jane. Key rotated.');
    expect(doc.text).toContain(runbook);
    expect(doc.text).toContain(prose);
    expect(doc.sections.map(s => s.heading)).not.toContain('profile.picture');
    // Minified JSON has no whitespace either, but it is text worth finding.
    expect(doc.text).toContain('"operationId":"createCharge"');
  });

  it('strips NUL characters, which text columns refuse', () => {
    const doc = entityToDocument({
      apiVersion: 'v1',
      kind: 'Component',
      metadata: { name: 'nul', title: 'Nu\u0000l', description: 'a\u0000b' },
      spec: { note: 'c\u0000d', tags: ['e\u0000f'] },
    });
    expect(doc.text).not.toContain('\u0000');
    expect(doc.title).toBe('Nul');
    expect(doc.text).toContain('ab');
    expect(doc.text).toContain('note: cd');
    expect(doc.text).toContain('tags: ef');
  });

  it('copes with a bare entity', () => {
    const doc = entityToDocument({
      apiVersion: 'v1',
      kind: 'Group',
      metadata: { name: 'team-a' },
    });
    expect(doc.title).toBe('team-a');
    expect(doc.sections).toHaveLength(1);
    expect(doc.text).toBe(
      'team-a\n\nKind: Group\nName: team-a\nNamespace: default',
    );
  });
});
