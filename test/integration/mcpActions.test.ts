/*
 * Ask the docs for AI agents: the ask-docs actions served as MCP tools by
 * @backstage/plugin-mcp-actions-backend, called with the real MCP client over streamable HTTP.
 * The path is the production one: MCP plugin → actions service (HTTP, on behalf of the
 * caller) → the ask-docs actions registry → AskService on real Postgres. A canary string in a
 * restricted document must reach its owner (positive control) and nobody else, in any field.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import mcpActionsPlugin from '@backstage/plugin-mcp-actions-backend';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FakeOpenAI, startFakeOpenAI } from '../fake-openai';
import {
  AskBackend,
  citeFirstBlock,
  docsComponent,
  fakePermissions,
  FakePolicy,
  htmlPage,
  restrictedToOwnersDecision,
  startAskBackend,
} from '../src';

const CANARY = 'quokkacanary-58213';
/** The restricted page's title: chunks and citations carry it. */
const RESTRICTED_TITLE = 'Vault recovery';
const LEAK = new RegExp(
  `${CANARY}|${RESTRICTED_TITLE}|Incident vault|incident-vault`,
  'i',
);
const CANARY_QUESTION = `What is the ${CANARY} recovery passphrase rotation?`;
const RESTRICTED_REF = 'component:default/incident-vault';
const SHARED_REF = 'component:default/release-guide';

const bob = 'user:default/bob'; // team-security: owns the restricted document
const alice = 'user:default/alice'; // may ask, may not read restricted documents
const mallory = 'user:default/mallory'; // may not ask at all

const sites = [
  {
    entity: docsComponent('incident-vault', {
      owner: 'group:default/team-security',
      tags: ['restricted'],
      title: 'Incident vault',
    }),
    pages: {
      'index.html': htmlPage(RESTRICTED_TITLE, [
        [
          'Passphrase',
          `The ${CANARY} recovery passphrase rotation happens every ninety days.`,
        ],
      ]),
    },
  },
  {
    entity: docsComponent('release-guide', {
      owner: 'group:default/platform',
      title: 'Release guide',
    }),
    pages: {
      'index.html': htmlPage('Releasing', [
        [
          'Freeze',
          'Releases are frozen on Fridays; the release captain approves every hotfix.',
        ],
      ]),
    },
  },
];

/** Unrestricted documents for everyone, restricted ones for their owners (the dev policy). */
const policyFor = (claims: string[]): FakePolicy => ({
  chunk: restrictedToOwnersDecision(claims),
});

const policies: Record<string, FakePolicy> = {
  [bob]: policyFor([bob, 'group:default/team-security']),
  [alice]: policyFor([alice, 'group:default/team-payments']),
  [mallory]: { ...policyFor([mallory]), basic: { 'ask-docs.ask': 'DENY' } },
};

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
}

describe('ask-docs actions as MCP tools', () => {
  let fake: FakeOpenAI;
  let backend: AskBackend;

  /** An MCP session over HTTP, authenticated as `authorization` (a Backstage bearer header). */
  async function connect(authorization: string): Promise<Client> {
    const url = new URL(
      `http://localhost:${backend.server.port()}/api/mcp-actions/v1`,
    );
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: authorization } },
    });
    const client = new Client({
      name: 'ask-docs-test-agent',
      version: '1.0.0',
    });
    await client.connect(transport);
    return client;
  }

  async function call(
    authorization: string,
    name: string,
    args: Record<string, unknown>,
  ) {
    const client = await connect(authorization);
    try {
      return (await client.callTool({ name, arguments: args })) as ToolResult;
    } finally {
      await client.close();
    }
  }
  const as = (user: string) => mockCredentials.user.header(user);

  beforeAll(async () => {
    fake = await startFakeOpenAI({ behaviour: citeFirstBlock });
    backend = await startAskBackend({
      sites,
      claims: {},
      llmBaseUrl: fake.baseUrl,
      // Users get their policy; anyone else (admin, the plugins' service principals) ALLOW.
      permissions: fakePermissions(
        credentials =>
          policies[(credentials?.principal as any)?.userEntityRef] ?? {},
      ),
      features: [mcpActionsPlugin],
      config: { backend: { actions: { pluginSources: ['ask-docs'] } } },
    });
    expect((await backend.ingest()).status).toBe('succeeded');
  });

  afterAll(async () => {
    await backend?.stop();
    await fake?.stop();
  });

  beforeEach(() => fake.reset());

  it('lists both actions as tools with their input schemas', async () => {
    const client = await connect(as(alice));
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map(t => [t.name, t]));
      const ask = byName.get('ask-docs.ask');
      const search = byName.get('ask-docs.search');
      expect(ask?.inputSchema).toMatchObject({
        type: 'object',
        required: ['question'],
        properties: { question: { type: 'string' }, scope: { type: 'object' } },
      });
      expect(search?.inputSchema).toMatchObject({
        type: 'object',
        required: ['query'],
        properties: {
          query: { type: 'string' },
          // Returns no more than retrieval keeps (askDocs.retrieval.topK, default 8), and says so.
          limit: {
            type: 'integer',
            maximum: 50,
            description: expect.stringMatching(/at most 8 are returned/),
          },
        },
      });
      // It writes an audit record and may call a paid model: clients must not auto-approve it.
      expect(ask?.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
      });
      expect(search?.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
      });
    } finally {
      await client.close();
    }
  });

  it('search returns restricted chunks to their owner and to nobody else', async () => {
    const owner = await call(as(bob), 'ask-docs.search', {
      query: CANARY_QUESTION,
    });
    expect(owner.isError).toBeFalsy();
    const top = owner.structuredContent.chunks[0];
    expect(top).toMatchObject({
      entityRef: RESTRICTED_REF,
      title: RESTRICTED_TITLE,
    });
    expect(top.snippet).toContain(CANARY);
    expect(top.url).toMatch(/incident-vault/);
    expect(top.sectionPath).toMatch(/Passphrase/);
    expect(top.score).toBeGreaterThan(0);
    // The id is the index's durable chunk id.
    const row = await backend.db
      .knex('ask_docs_chunks')
      .where('chunk_id', top.chunkId)
      .first();
    expect(row).toBeDefined();

    const other = await call(as(alice), 'ask-docs.search', {
      query: CANARY_QUESTION,
    });
    expect(other.isError).toBeFalsy();
    expect(
      other.structuredContent.chunks.map((c: any) => c.entityRef),
    ).not.toContain(RESTRICTED_REF);
    expect(JSON.stringify(other)).not.toMatch(LEAK);
    // Not blind either: alice finds what she may read.
    const shared = await call(as(alice), 'ask-docs.search', {
      query: 'Who approves a hotfix?',
      limit: 1,
    });
    expect(shared.structuredContent.chunks).toEqual([
      expect.objectContaining({
        entityRef: SHARED_REF,
        snippet: expect.stringMatching(/captain/),
      }),
    ]);
  });

  it('ask answers the owner from the restricted document and nobody else', async () => {
    const owner = await call(as(bob), 'ask-docs.ask', {
      question: CANARY_QUESTION,
    });
    expect(owner.isError).toBeFalsy();
    expect(owner.structuredContent).toMatchObject({
      status: 'answered',
      grounded: true,
      answer: expect.stringContaining(`[${RESTRICTED_TITLE}`),
      sources: [
        expect.objectContaining({
          entityRef: RESTRICTED_REF,
          title: RESTRICTED_TITLE,
        }),
      ],
    });
    expect(owner.structuredContent.sources[0].snippet).toContain(CANARY);
    expect(owner.structuredContent.sources[0].chunkId).toMatch(/\S/);
    // Each marker with its own link, as the REST answer gives it.
    expect(owner.structuredContent.sources[0].citations).toEqual([
      {
        label: expect.stringContaining(RESTRICTED_TITLE),
        url: expect.stringMatching(/^\/docs\//),
      },
    ]);
    expect(owner.structuredContent.answerId).toMatch(/\S/);
    expect(
      fake.requests.some(r => JSON.stringify(r.messages).includes(CANARY)),
    ).toBe(true);

    fake.reset();
    const other = await call(as(alice), 'ask-docs.ask', {
      question: CANARY_QUESTION,
    });
    expect(other.isError).toBeFalsy();
    expect(other.structuredContent).toMatchObject({
      sources: [],
      grounded: false,
    });
    expect(other.structuredContent.status).not.toBe('answered');
    expect(JSON.stringify(other)).not.toMatch(LEAK);
    // Nor did the model see it on alice's behalf.
    expect(JSON.stringify(fake.requests.map(r => r.messages))).not.toMatch(
      LEAK,
    );

    // An entity scope narrows the owner's view too.
    const scoped = await call(as(bob), 'ask-docs.ask', {
      question: CANARY_QUESTION,
      scope: { entityRefs: [SHARED_REF] },
    });
    expect(scoped.structuredContent.sources).toEqual([]);
    expect(JSON.stringify(scoped.structuredContent.evidence)).not.toContain(
      CANARY,
    );
  });

  it('refuses both actions to a user without the ask permission', async () => {
    for (const [tool, args] of [
      ['ask-docs.ask', { question: CANARY_QUESTION }],
      ['ask-docs.search', { query: CANARY_QUESTION }],
    ] as const) {
      const result = await call(as(mallory), tool, args);
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(
        /NotAllowedError: You may not ask the docs/,
      );
      expect(JSON.stringify(result)).not.toMatch(LEAK);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('shows a service principal nothing, though the policy allows services all', async () => {
    const service = mockCredentials.service.header();
    const search = await call(service, 'ask-docs.search', {
      query: CANARY_QUESTION,
    });
    expect(search.isError).toBeFalsy();
    expect(search.structuredContent.chunks).toEqual([]);
    const ask = await call(service, 'ask-docs.ask', {
      question: CANARY_QUESTION,
    });
    expect(ask.structuredContent).toMatchObject({
      status: 'not_in_knowledge_base',
      // Through the action's output schema: an agent reads why, not only the English notice.
      reason: 'no_evidence',
      sources: [],
      evidence: [],
    });
    expect(JSON.stringify([search, ask])).not.toMatch(LEAK);
    expect(fake.requests).toHaveLength(0);
  });

  it('rejects malformed input with an input error', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['ask-docs.ask', { question: '   ' }],
      ['ask-docs.ask', { question: 'x', extra: true }],
      ['ask-docs.search', { query: '' }],
      ['ask-docs.search', { query: 'release', limit: 0 }],
      ['ask-docs.search', { query: 'release', limit: 51 }],
      [
        'ask-docs.search',
        { query: 'release', scope: { entityRefs: 'not-a-list' } },
      ],
    ];
    for (const [tool, args] of cases) {
      const result = await call(as(bob), tool, args);
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^InputError: /);
    }
    expect(fake.requests).toHaveLength(0);
  });
});
