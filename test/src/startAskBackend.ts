/*
 * The one way the HTTP-level suites start a backend (startTestBackend from backend-test-utils):
 * TechDocs (local publisher) and ask-docs on real Postgres, a catalog mock and the permission
 * fake. startAskBackend adds hand-written pages and a policy that hides documents tagged
 * `restricted` from everyone but their owners (as a conditional decision, like the dev policy).
 */
import {
  BackendFeature,
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import {
  Entity,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import techdocsPlugin from '@backstage/plugin-techdocs-backend';
import askDocsPlugin from '@askdocs/plugin-ask-docs-backend';
import fs from 'fs';
import os from 'os';
import path from 'path';
import request from 'supertest';
import {
  startTestDatabase,
  TestDatabase,
} from '../../plugins/ask-docs-backend/src/testUtils/testDatabase';
import {
  fakePermissions,
  restrictedToOwnersDecision,
  userRefOf,
} from './permissionsFake';
import { FakeOpenAI, startFakeOpenAI } from '../fake-openai';
import { citeFirstBlock } from './fakeModelBehaviours';
import { docsComponent } from './fileTechDocsReader';
import { writeMetadata } from './techdocsSite';

export interface HandWrittenSite {
  entity: Entity;
  /** Page path ('index.html', 'x/index.html') → HTML. */
  pages: Record<string, string>;
}

export interface AskBackend {
  server: Awaited<ReturnType<typeof startTestBackend>>['server'];
  db: TestDatabase;
  /** Runs one ingestion through the API and waits for it; returns the final progress. */
  ingest(): Promise<any>;
  stop(): Promise<void>;
}

export async function startAskBackend(options: {
  sites: HandWrittenSite[];
  /** Ownership claims per user entity ref; unknown users own nothing. */
  claims: Record<string, string[]>;
  llmBaseUrl: string;
  llmTimeoutMs?: number;
  /**
   * Decides `authorize` requests of users (ask, audit, ingestion); default ALLOW. ingest() runs as
   * user:default/admin. Like Backstage's permission service without externalAccess
   * accessRestrictions, every service principal is ALLOWed whatever this says.
   */
  authorize?: (
    permissionName: string,
    credentials: BackstageCredentials,
  ) => AuthorizeResult.ALLOW | AuthorizeResult.DENY;
  /** Extra `askDocs` settings, merged over the defaults (one level deep). */
  askDocsConfig?: Record<string, unknown>;
  /** Replaces the policy above entirely (e.g. a scripted fakePermissions). */
  permissions?: PermissionsService;
  /** More plugins for the same backend (e.g. @backstage/plugin-mcp-actions-backend). */
  features?: BackendFeature[];
  /** More top-level config (e.g. `backend.actions`), besides permission, techdocs and askDocs. */
  config?: Record<string, unknown>;
}): Promise<AskBackend> {
  const db = await startTestDatabase({ migrate: false });
  const publishDir = fs.mkdtempSync(
    path.join(os.tmpdir(), 'ask-docs-backend-'),
  );
  for (const site of options.sites) {
    const { namespace = 'default', name } = site.entity.metadata;
    const dir = path.join(
      publishDir,
      namespace,
      site.entity.kind.toLowerCase(),
      name,
    );
    for (const [page, html] of Object.entries(site.pages)) {
      fs.mkdirSync(path.dirname(path.join(dir, page)), { recursive: true });
      fs.writeFileSync(path.join(dir, page), html);
    }
    writeMetadata(dir, site.entity.metadata.title ?? name);
  }
  const entities = options.sites.map(s => s.entity);
  // The dev policy's shape; services are ALLOWed (no access restrictions) whatever it says.
  const permissions =
    options.permissions ??
    fakePermissions(credentials => ({
      chunk: restrictedToOwnersDecision(
        options.claims[userRefOf(credentials) ?? ''] ?? [],
      ),
      basic: name => options.authorize?.(name, credentials) ?? 'ALLOW',
    }));
  const backend = await startAskDocsTestBackend({
    db,
    publishDir,
    entities,
    permissions,
    features: options.features,
    config: options.config,
    askDocsConfig: {
      languages: ['en'],
      llm: fakeModelSettings(options.llmBaseUrl, options.llmTimeoutMs),
      ...options.askDocsConfig,
    },
  });
  return {
    server: backend.server,
    db,
    ingest: () => ingestThroughApi(backend.server, 'user:default/admin'),
    async stop() {
      await backend.stop();
      await db.stop();
      fs.rmSync(publishDir, { recursive: true, force: true });
    },
  };
}

/** `askDocs.llm` for the fake OpenAI-compatible model at `baseUrl` (no retries). */
export const fakeModelSettings = (baseUrl: string, timeoutMs = 5000) => ({
  baseUrl,
  apiKey: 'test-key',
  model: 'fake-model',
  timeoutMs,
  maxRetries: 0,
});

/**
 * TechDocs (local publisher over `publishDir`) and ask-docs on `db`, with a catalog mock listing
 * `entities` (read on every call, so a suite may change the array) and the given permissions.
 */
export async function startAskDocsTestBackend(options: {
  db: TestDatabase;
  publishDir: string;
  entities: Entity[];
  /** Default: everything allowed. */
  permissions?: PermissionsService;
  /** `askDocs` settings merged over the test defaults (hashing embeddings, no schedule). */
  askDocsConfig?: Record<string, unknown>;
  features?: BackendFeature[];
  /** More top-level config (e.g. `backend.actions`), besides permission, techdocs and askDocs. */
  config?: Record<string, unknown>;
  logLevel?: 'error' | 'warn';
}) {
  const { entities } = options;
  const catalog = catalogServiceMock.mock({
    queryEntities: async () => ({
      items: [...entities],
      totalItems: entities.length,
      pageInfo: {},
    }),
    getEntityByRef: async (ref: any) => {
      const wanted = stringifyEntityRef(
        typeof ref === 'string' ? parseEntityRef(ref) : ref,
      );
      return entities.find(e => stringifyEntityRef(e) === wanted);
    },
    // A slow run reads the rest of a listing page again (catalogEntitySource.ts).
    getEntitiesByRefs: async ({ entityRefs }: { entityRefs: string[] }) => ({
      items: entityRefs.map(ref =>
        entities.find(e => stringifyEntityRef(e) === ref),
      ),
    }),
  });
  const publisher = {
    type: 'local',
    local: { publishDirectory: options.publishDir },
  };
  return startTestBackend({
    features: [
      techdocsPlugin,
      askDocsPlugin,
      ...(options.features ?? []),
      catalog.factory,
      mockServices.rootLogger.factory({ level: options.logLevel ?? 'error' }),
      mockServices.database.factory({ knex: options.db.knex }),
      mockServices.permissions.mock(options.permissions ?? fakePermissions({}))
        .factory,
      mockServices.rootConfig.factory({
        data: {
          ...options.config,
          permission: { enabled: true },
          techdocs: { builder: 'external', publisher },
          askDocs: {
            embeddings: { provider: 'hashing' },
            ingestion: {
              schedule: {
                frequency: { hours: 24 },
                timeout: { minutes: 10 },
                initialDelay: { hours: 24 },
              },
            },
            // The mock scheduler syncs once at startup; the ingestion run counts as a sync too.
            visibilitySync: { maxStaleness: { hours: 1 } },
            ...options.askDocsConfig,
          },
        },
      }),
    ],
  });
}

export type AskDocsTestBackend = Awaited<
  ReturnType<typeof startAskDocsTestBackend>
>;

/** Runs one ingestion through the API as `user` and waits for it; returns the final progress. */
export async function ingestThroughApi(
  server: AskBackend['server'],
  user: string,
): Promise<any> {
  const authorization = mockCredentials.user.header(user);
  const started = await request(server)
    .post('/api/ask-docs/v1/ingestion/runs')
    .set('Authorization', authorization);
  if (started.status !== 202)
    throw new Error(`ingestion did not start: ${started.status}`);
  for (let i = 0; i < 600; i++) {
    const res = await request(server)
      .get('/api/ask-docs/v1/ingestion')
      .set('Authorization', authorization);
    if (res.status !== 200) {
      throw new Error(
        `GET /v1/ingestion: ${res.status} ${JSON.stringify(res.body)}`,
      );
    }
    if (res.body.status && res.body.status !== 'running') return res.body;
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error('ingestion did not finish');
}

/** A minimal HTML page with one section per [heading, paragraph]. */
export function htmlPage(
  title: string,
  sections: Array<[heading: string, text: string]>,
): string {
  const body = sections
    .map(
      ([heading, text]) =>
        `<h2 id="${heading
          .toLowerCase()
          .replace(/\W+/g, '-')}">${heading}</h2><p>${text}</p>`,
    )
    .join('');
  return (
    `<!doctype html><html><head><title>${title}</title></head>` +
    `<body><article><h1>${title}</h1>${body}</article></body></html>`
  );
}

/**
 * For one describe block: a fake OpenAI-compatible model (citing the first block) and an ask-docs
 * backend answering through it, ingested once before the tests and stopped after them.
 */
export function useFakeModelBackend(
  options: () => Omit<Parameters<typeof startAskBackend>[0], 'llmBaseUrl'>,
): { readonly fake: FakeOpenAI; readonly backend: AskBackend } {
  const env = {} as { fake: FakeOpenAI; backend: AskBackend };
  beforeAll(async () => {
    env.fake = await startFakeOpenAI({ behaviour: citeFirstBlock });
    env.backend = await startAskBackend({
      ...options(),
      llmBaseUrl: env.fake.baseUrl,
    });
    expect((await env.backend.ingest()).status).toBe('succeeded');
  });
  afterAll(async () => {
    await env.backend?.stop();
    await env.fake?.stop();
  });
  return env;
}

/** A public handbook page anyone may read: the control document of several suites. */
export function engineeringHandbookSite(): HandWrittenSite {
  return {
    entity: docsComponent('engineering-handbook', {
      owner: 'group:default/platform',
      title: 'Engineering handbook',
    }),
    pages: {
      'index.html': htmlPage('Code review', [
        [
          'Reviews',
          'Every change needs one approving review before it is merged into the main branch.',
        ],
      ]),
    },
  };
}

/** The restricted handbook only team-security reads: the secret document of several suites. */
export function securityHandbookSite(): HandWrittenSite {
  return {
    entity: docsComponent('security-handbook', {
      owner: 'group:default/team-security',
      tags: ['restricted'],
      title: 'Security handbook',
    }),
    pages: {
      'index.html': htmlPage('Key ceremony', [
        [
          'Ceremony',
          'The narwhalkeys ceremony rotates the hardware security module keys every quarter.',
        ],
        [
          'Witnesses',
          'Two witnesses sign the narwhalkeys ceremony log before the vault is sealed again.',
        ],
      ]),
    },
  };
}
