import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import {
  actionsRegistryServiceRef,
  metricsServiceRef,
} from '@backstage/backend-plugin-api/alpha';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { askDocsPermissions } from '@askdocs/plugin-ask-docs-common';
import { registerAskDocsActions } from './actions';
import { ChatModel, createChatModelFromOptions } from './answer';
import { DatabaseAskDocsStore } from './database/DatabaseAskDocsStore';
import type { VisibilitySyncState } from './database/AskDocsStore';
import { KnowledgeIndex } from './database/IndexReader';
import { applyDatabaseMigrations } from './database/migrations';
import { requirePostgresWithVector } from './database/requirePostgres';
import { ensureVectorIndex } from './database/vectorIndex';
import { createEmbedder, embedderInfo } from './embedding';
import { createReranker } from './embedding/createReranker';
import {
  startEntityAttributeSync,
  VISIBILITY_FIELDS,
} from './ingestion/attributeSync';
import { CatalogEntitySource } from './ingestion/catalogEntitySource';
import {
  defaultRunLease,
  scheduledIngestion,
  Ingester,
} from './ingestion/Ingester';
import { TechDocsBackendReader } from './ingestion/techDocsBackendReader';
import { createLanguageAnalyzers } from './language';
import { AskDocsMetrics } from './metrics';
import {
  askDocsChunkResourceRef,
  askDocsChunkRules,
  createAskDocsChunkResourceLoader,
} from './permissions';
import { AskService } from './service/AskService';
import { AskDocsAuthorizer } from './service/authorization';
import { IngestionController } from './service/IngestionController';
import { scheduleMaintenance } from './service/maintenance';
import { createRouter } from './service/router';
import { readAskDocsConfig, resolveRetrievalSettings } from './settings';

/**
 * Ask the docs backend: keeps the knowledge index of TechDocs pages and catalog entities, and
 * answers questions from the documents the asker may read.
 */
export const askDocsPlugin = createBackendPlugin({
  pluginId: 'ask-docs',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        database: coreServices.database,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        auth: coreServices.auth,
        discovery: coreServices.discovery,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        scheduler: coreServices.scheduler,
        lifecycle: coreServices.lifecycle,
        auditor: coreServices.auditor,
        catalog: catalogServiceRef,
        actionsRegistry: actionsRegistryServiceRef,
        metrics: metricsServiceRef,
      },
      async init(deps) {
        const {
          config,
          logger,
          database,
          httpRouter,
          httpAuth,
          auth,
          discovery,
          permissions,
          permissionsRegistry,
          scheduler,
          lifecycle,
          auditor,
          catalog,
        } = deps;
        // OpenTelemetry instruments; exported only where the app sets up the OpenTelemetry SDK.
        const metrics = AskDocsMetrics.create(deps.metrics);
        // Every askDocs key is read and checked here, before anything starts.
        const settings = readAskDocsConfig(config);
        const knex = await database.getClient();
        // Before any migration: SQLite or a server without pgvector fails here, in one sentence.
        await requirePostgresWithVector(knex);
        if (!database.migrations?.skip) {
          await applyDatabaseMigrations(knex);
        }
        const store = new DatabaseAskDocsStore(knex);

        permissionsRegistry.addResourceType({
          resourceRef: askDocsChunkResourceRef,
          permissions: askDocsPermissions,
          rules: askDocsChunkRules,
          getResources: createAskDocsChunkResourceLoader(knex),
        });

        const analyzers = await createLanguageAnalyzers({
          languages: settings.languages,
          hunspell: settings.hunspell,
          bilingualDictionary: settings.bilingualDictionary,
          onMissingDictionary: 'stem-only',
          logger,
        });
        // The hashing fallback shares the keyword index's lemma and stem analysis.
        const embedder = await createEmbedder(settings.embeddings, logger, {
          analyzers,
        });
        // Absent config loads nothing; a configured one that fails stops start-up unless allowed.
        const reranked = await createReranker(
          settings.retrieval.reranker,
          logger,
        );
        const registerModel = async () => {
          await store.registerModel({
            modelId: embedder.modelId,
            dimension: embedder.dimension,
            kind: embedder.kind,
          });
          // Again after a retirement of this model (askDocs.retention.unusedModelDays).
          await ensureVectorIndex(knex, embedder.modelId, embedder.dimension, {
            buildMemory: settings.retrieval.hnswBuildMemory,
          });
        };
        await registerModel();
        await scheduleMaintenance({
          scheduler,
          store,
          logger,
          settings,
          modelId: embedder.modelId,
          recordModelInUse: registerModel,
        });
        const model =
          settings.llm && createChatModelFromOptions(settings.llm, { logger });
        if (!model) {
          logger.warn(
            'ask-docs: no language model configured: askDocs.llm needs model and apiKey (apiKey: ' +
              'none for a server without authentication); answers will be evidence only',
          );
        } else {
          // Where the passages go, said once: an operator checks it against what they meant.
          logger.info(
            `ask-docs: language model ${settings.llm!.model} at ` +
              `${new URL(settings.llm!.baseUrl).origin}`,
          );
        }

        // TechDocs' own key (its schema declares it): where its publishers keep sites, and so
        // which spelling its reader's URLs need.
        const legacyUseCaseSensitiveTripletPaths =
          config.getOptionalBoolean(
            'techdocs.legacyUseCaseSensitiveTripletPaths',
          ) ?? false;
        const ingester = new Ingester({
          store,
          entities: new CatalogEntitySource(catalog, auth),
          techdocs: new TechDocsBackendReader(discovery, auth, {
            legacyUseCaseSensitiveTripletPaths,
            maxPageChars: settings.ingestion.maxPageChars,
          }),
          legacyUseCaseSensitiveTripletPaths,
          embedder,
          analyzers,
          languages: settings.languages,
          logger,
          maxPageChars: settings.ingestion.maxPageChars,
          maxChunkChars: settings.ingestion.maxChunkChars,
          concurrency: settings.ingestion.concurrency,
          metrics,
          removedEntityDays: settings.retention.removedEntityDays,
        });
        await store.failAbandonedRuns(defaultRunLease.staleAfterMs);

        await scheduler.scheduleTask({
          id: 'ask-docs-ingestion',
          ...settings.ingestion.schedule,
          fn: scheduledIngestion(ingester, logger),
        });
        // Before the root's hooks close the database: the run is recorded as failed, not left
        // 'running' to block the next start until its lease goes stale.
        lifecycle.addShutdownHook(() => ingester.stop());
        if (settings.ingestion.runOnStart) {
          // The scheduler applies initialDelay only when it first stores the task.
          lifecycle.addStartupHook(() => {
            scheduler.triggerTask('ask-docs-ingestion').catch(e =>
              // Already running (here, or claimed by another instance): nothing to start.
              logger.info(
                `ask-docs: no ingestion run at start: ${
                  e instanceof Error ? e.message : String(e)
                }`,
              ),
            );
          });
        }
        await startEntityAttributeSync({
          store,
          entities: new CatalogEntitySource(catalog, auth, VISIBILITY_FIELDS),
          logger,
          scheduler,
          settings: settings.visibilitySync,
        });

        // Service principals get administrative permissions only from askDocs.permissions.services.
        const authorizer = new AskDocsAuthorizer(
          permissions,
          settings.permissions.services,
        );
        const askService = new AskService({
          index: new KnowledgeIndex(knex),
          store,
          permissions,
          authorizer,
          maxQueryTerms: settings.answer.maxQueryTerms,
          embedder,
          analyzers,
          model,
          retrieval: resolveRetrievalSettings(settings.retrieval, embedder),
          reranker: reranked.reranker,
          answer: settings.answer.options,
          logger,
          metrics,
          modelQuota: settings.modelQuota,
        });
        // Like the ingester's: an ask still waiting for the model is recorded (abandoned)
        // while the database is there, not lost with its paid call.
        lifecycle.addShutdownHook(() => askService.stop());
        const ingestion = new IngestionController(store, ingester, authorizer);

        httpRouter.use(
          await createRouter({
            httpAuth,
            auditor,
            logger,
            askService,
            ingestion,
            maxQuestionChars: settings.answer.maxQuestionChars,
            // Anonymous probes touch no database: a load balancer's check stays cheap.
            health: async ({ signedIn }) =>
              signedIn
                ? {
                    status: 'ok',
                    embedder: embedderInfo(embedder),
                    llm: llmHealth(model),
                    languages: analyzers.languages,
                    ...(reranked.info ? { reranker: reranked.info } : {}),
                    visibility: visibilityHealth(
                      await store.visibilitySyncState(),
                    ),
                  }
                : { status: 'ok' },
          }),
        );
        httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
        // Agents (MCP): the same AskService, run with the calling principal's credentials.
        registerAskDocsActions({
          actionsRegistry: deps.actionsRegistry,
          askService,
          auditor,
          maxQuestionChars: settings.answer.maxQuestionChars,
          // Retrieval keeps no more: the search action offers no more.
          maxSearchResults: settings.retrieval.topK,
          logger,
        });
      },
    });
  },
});

/** The freshness guard's state, as /health reports it. */
function visibilityHealth(state: VisibilitySyncState) {
  return {
    stale: state.stale,
    ...(state.lastSuccessAt
      ? { lastSyncAt: state.lastSuccessAt.toISOString() }
      : {}),
    ...(state.maxStalenessSeconds !== undefined
      ? { maxStalenessSeconds: state.maxStalenessSeconds }
      : {}),
  };
}

/**
 * Whether a model is configured, and why its last call failed (reason and time; the message is
 * in the log).
 */
function llmHealth(model: ChatModel | undefined) {
  const failure = model?.lastFailure?.();
  return {
    configured: Boolean(model),
    ...(model ? { model: model.model } : {}),
    ...(failure
      ? {
          lastFailure: {
            reason: failure.reason,
            at: failure.at.toISOString(),
          },
        }
      : {}),
  };
}
