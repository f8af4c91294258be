import {
  AuditorService,
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  ActionsRegistryActionOptions,
  ActionsRegistryService,
} from '@backstage/backend-plugin-api/alpha';
import { NOTICE_REASONS } from '@askdocs/plugin-ask-docs-common';
import { citedPassage } from '../answer';
import { AskService } from '../service/AskService';
import { answerOutcome, audited } from '../service/auditing';
import {
  clientErrorStatus,
  INTERNAL_ERROR_MESSAGE,
  logInternalError,
} from '../service/errors';
import { actorRef, principalRef } from '../service/principals';
import { parseAskRequest } from '../service/validation';
import { DEFAULT_TOP_K } from '../settings';

/*
 * Ask the docs for AI agents: two actions in the Backstage actions registry, which
 * @backstage/plugin-mcp-actions-backend offers as MCP tools (`ask-docs.ask`, `ask-docs.search`).
 * Both run with the credentials the registry hands over, i.e. the calling principal's (an agent
 * calling through the MCP plugin arrives on behalf of its user), through the same AskService as
 * the REST API: ask permission, then the caller's visibility in SQL. The plugin's own service
 * credentials are never used here, so an agent sees exactly what its user would see.
 */

export interface AskDocsActionsOptions {
  actionsRegistry: ActionsRegistryService;
  askService: AskService;
  /** Each call is an audit event, as the same call over REST is (service/auditing.ts). */
  auditor: AuditorService;
  /** The REST API's question limit (askDocs.answer.maxQuestionChars). */
  maxQuestionChars: number;
  /** Where internal failures go; the caller gets only a request id, as from the REST API. */
  logger: LoggerService;
  /**
   * The most passages a search returns: retrieval keeps askDocs.retrieval.topK (default
   * DEFAULT_TOP_K), so a larger `limit` could never be honoured.
   */
  maxSearchResults?: number;
}

/** Longer than the UI's snippets: an agent reads them instead of opening the page. */
const SEARCH_SNIPPET_CHARS = 800;
/** The largest `limit` accepted. */
const MAX_SEARCH_LIMIT = 50;

/** The zod the registry hands to schema functions (its own copy, not this package's). */
type Zod = Parameters<
  ActionsRegistryActionOptions<any, any>['schema']['input']
>[0];

// The REST API's bounds (openapi.yaml AskScope): at most 50 refs of 1..300 characters.
const scopeSchema = (z: Zod) =>
  z
    .object({
      entityRefs: z
        .array(z.string().min(1).max(300))
        .max(50)
        .describe(
          'Only documents of these entities, each kind:namespace/name, e.g. ' +
            '"component:default/payments" (namespace default when left out)',
        ),
    })
    .strict()
    .optional()
    .describe('Restrict the documents searched');

/** The fields that identify, locate and cite a chunk; ids are stable across re-ingestion. */
const citationShape = (z: Zod) => ({
  chunkId: z
    .string()
    .describe('Durable chunk id (same text position → same id)'),
  documentId: z.string(),
  entityRef: z.string(),
  title: z.string(),
  sectionPath: z.string().describe('"Title › Section › Subsection"'),
  url: z.string().describe('Portal link to the section'),
  revision: z.string().describe('Document revision the text comes from'),
  snippet: z.string(),
});

/** Spelling corrections applied to the question, as both actions report them. */
const correctionsSchema = (z: Zod) =>
  z.array(z.object({ from: z.string(), to: z.string() }));

export function registerAskDocsActions(options: AskDocsActionsOptions): void {
  const { actionsRegistry, askService, auditor, maxQuestionChars, logger } =
    options;
  const maxSearchResults = options.maxSearchResults ?? DEFAULT_TOP_K;
  /**
   * Errors written for the caller (input, permission) pass; any other is logged and replaced,
   * as the REST API's error handler does: its message may name hosts, SQL or file paths.
   */
  const clientSafe = async <T>(what: string, run: () => Promise<T>) => {
    try {
      return await run();
    } catch (e) {
      if (clientErrorStatus(e) !== undefined) throw e;
      const requestId = logInternalError(logger, e, what);
      throw new Error(`${INTERNAL_ERROR_MESSAGE} (requestId ${requestId})`);
    }
  };
  // The question (or search query) within the REST API's limit.
  const questionSchema = (z: Zod) => z.string().min(1).max(maxQuestionChars);

  actionsRegistry.register({
    name: 'ask',
    title: 'Ask the docs',
    description:
      'Answers a question from the TechDocs and catalog documents the caller may read, with ' +
      'cited sources. status "not_in_knowledge_base": no visible document answers it (do not ' +
      'guess); "evidence_only": no model answer, read the evidence passages instead.',
    // Not read-only: it writes an audit record and may call a paid model, and MCP clients
    // auto-approve read-only tools. Nothing is overwritten or deleted, hence not destructive.
    attributes: { readOnly: false, destructive: false, idempotent: false },
    schema: {
      input: z =>
        z
          .object({ question: questionSchema(z), scope: scopeSchema(z) })
          .strict(),
      output: z =>
        z.object({
          answerId: z.string().describe('Audit record id of this answer'),
          status: z.enum([
            'answered',
            'not_in_knowledge_base',
            'evidence_only',
          ]),
          grounded: z
            .boolean()
            .describe('True only for a model answer backed by sources'),
          answer: z
            .string()
            .describe('Answer text with [Title] citation markers, or a label'),
          notice: z.string().optional(),
          reason: z
            .enum(NOTICE_REASONS)
            .optional()
            .describe(
              'Why there is no model answer; "quota_exceeded": the caller used its model ' +
                'quota, the evidence is all it gets for now',
            ),
          quota: z
            .object({ calls: z.number(), windowSeconds: z.number() })
            .optional()
            .describe('With "quota_exceeded": the limit the caller reached'),
          sources: z.array(
            z.object({
              ...citationShape(z),
              citations: z
                .array(z.object({ label: z.string(), url: z.string() }))
                .optional()
                .describe(
                  'The answer markers that cite this document, each with its own link',
                ),
            }),
          ),
          evidence: z.array(
            z.object({ ...citationShape(z), score: z.number() }),
          ),
          corrections: correctionsSchema(z),
        }),
    },
    action: async ({ input, credentials }) => {
      const request = parseAskRequest(input, maxQuestionChars);
      const r = await clientSafe('ask action', () =>
        audited(
          auditor,
          logger,
          {
            eventId: 'ask',
            meta: { queryType: 'action', ...caller(credentials) },
          },
          () => askService.ask(request, { credentials }),
          answerOutcome,
        ),
      );
      return {
        output: {
          answerId: r.id,
          status: r.status,
          grounded: r.grounded,
          answer: r.answer,
          notice: r.notice,
          reason: r.reason,
          quota: r.quota,
          sources: r.sources,
          evidence: r.evidence,
          corrections: r.corrections ?? [],
        },
      };
    },
  });

  actionsRegistry.register({
    name: 'search',
    title: 'Search the docs',
    description:
      'Finds the passages of TechDocs and catalog documents the caller may read that match a ' +
      'query, best first, with durable chunk ids and links. No model is involved. Returns at ' +
      `most ${maxSearchResults} passages, whatever the limit: retrieval keeps no more.`,
    attributes: { readOnly: true, idempotent: true },
    schema: {
      input: z =>
        z
          .object({
            query: questionSchema(z),
            scope: scopeSchema(z),
            limit: z
              .number()
              .int()
              .min(1)
              // Up to 50 is accepted (clients ask for 10 or 20); more than retrieval keeps
              // cannot be returned, and the descriptions say so.
              .max(MAX_SEARCH_LIMIT)
              .optional()
              .describe(
                `Passages to return; at most ${maxSearchResults} are returned whatever the limit`,
              ),
          })
          .strict(),
      output: z =>
        z.object({
          chunks: z.array(
            z.object({
              ...citationShape(z),
              score: z.number().describe('Fused rank score (higher is better)'),
            }),
          ),
          corrections: correctionsSchema(z),
        }),
    },
    action: async ({ input, credentials }) => {
      const request = parseAskRequest(
        { question: input.query, scope: input.scope },
        maxQuestionChars,
      );
      const result = await clientSafe('search action', () =>
        audited(
          auditor,
          logger,
          {
            eventId: 'search',
            meta: { queryType: 'action', ...caller(credentials) },
          },
          () => askService.search(request, { credentials }),
          found => ({ results: found.chunks.length }),
        ),
      );
      const chunks = result.chunks
        .slice(0, input.limit ?? maxSearchResults)
        .map(c => ({
          // Around what was searched for, not the greeting around it.
          ...citedPassage(c, result.searchedFor, SEARCH_SNIPPET_CHARS),
          score: c.rrf,
        }));
      return { output: { chunks, corrections: result.corrections } };
    },
  });
}

/**
 * The caller, for an action's audit event: an action has no HTTP request for the auditor to
 * read it from (it would name this plugin), so the event names the principal the registry
 * handed over and the plugin that called on its behalf (an MCP server).
 */
function caller(credentials: BackstageCredentials) {
  const via = actorRef(credentials);
  return { principal: principalRef(credentials), ...(via ? { via } : {}) };
}
