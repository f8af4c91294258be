import { SchedulerServiceTaskScheduleDefinitionConfig } from '@backstage/backend-plugin-api';
import { HumanDuration } from '@backstage/types';

export interface Config {
  askDocs?: {
    /**
     * Languages with keyword analysers; documents are detected as one of them. The built-in
     * analysers are 'en' and 'cs' (the default, both); other codes are a start-up error.
     */
    languages?: string[];
    hunspell?: {
      /** Czech dictionary (Debian hunspell-cs); loaded at run time, never bundled. */
      cs?: { affPath: string; dicPath: string };
    };
    /**
     * A dictd bilingual dictionary between two of the languages, e.g. Debian's
     * dict-freedict-eng-ces: { path: /usr/share/dictd/freedict-eng-ces, from: en, to: cs }
     * (`path` without the .index / .dict.dz extensions). Questions then also match the other
     * language's words for theirs (a Czech question finds English pages). Read at start, never
     * bundled; unset: no translation.
     */
    bilingualDictionary?: { path: string; from: string; to: string };
    embeddings?: {
      /** 'transformers' (local ONNX model) or 'hashing' (offline fallback, lower quality). */
      provider?: 'transformers' | 'hashing';
      /** Model id, also recorded per chunk. Default Xenova/multilingual-e5-small. */
      model?: string;
      /**
       * Directory holding a folder per model: `<localModelPath>/<model>/config.json`, tokenizer
       * and onnx files. Never downloaded. Default `models` under the backend's working directory.
       */
      localModelPath?: string;
      queryPrefix?: string;
      passagePrefix?: string;
      /** Dimension of the hashing embedder. */
      dimension?: number;
      batchSize?: number;
      /** Tokens per passage; longer passages are truncated (default 512). */
      maxTokens?: number;
      /** ONNX weights variant, e.g. 'fp32' (default) or 'q8'. */
      dtype?: string;
      /** Use the hashing embedder when the model cannot be loaded (reported by /health). */
      allowFallback?: boolean;
    };
    ingestion?: {
      /**
       * When ingestion runs, as Backstage's scheduler reads it: frequency (a duration or
       * { cron }), timeout, optional initialDelay and scope. Default every 30 minutes, timeout
       * 3 hours, first run 10 s after start. A run past its timeout stops before its next
       * entity, recorded as failed; the next run goes on from what was indexed (unchanged pages
       * are skipped), but entities gone from the catalog leave the index only with a run that
       * completes: set the timeout above the longest run.
       */
      schedule?: SchedulerServiceTaskScheduleDefinitionConfig;
      /**
       * Start an ingestion run right after every start of the backend (the schedule alone
       * runs at start only the first time; not with schedule.initialDelay).
       */
      runOnStart?: boolean;
      maxPageChars?: number;
      maxChunkChars?: number;
      /** Pages fetched concurrently from TechDocs. */
      concurrency?: number;
    };
    retrieval?: {
      /** Chunks kept after fusion and filtering. */
      topK?: number;
      /** Candidates taken from each of vector and keyword search before fusion. */
      candidates?: number;
      rrfK?: number;
      /**
       * How retrieval decides that the documents answer a question: 'thresholds' (per-chunk
       * similarity and coverage bars below) or 'fitted' (the logistic evidence model fitted for
       * the embedder's kind, decision record 0009). Unset: 'fitted' for the embedding model the
       * shipped numbers were fitted on (the hashing fallback with en + cs, 384 dimensions),
       * 'thresholds' for every other model. Thresholds configured for the running model or as
       * `default` always win.
       */
      evidenceDecision?: 'thresholds' | 'fitted';
      /** Evidence thresholds per embedding model id, with a default. */
      thresholds?: {
        [modelId: string]: { minSimilarity?: number; minCoverage?: number };
      };
      /**
       * RRF weights of the vector and keyword lists per embedding model id, with a default.
       * Built in: 1 / 1 for transformers models, 0.1 / 1 for the hashing fallback.
       */
      fusionWeights?: {
        [modelId: string]: { vector?: number; keyword?: number };
      };
      /**
       * How the vector and keyword lists become one ranking: 'rrf' (reciprocal rank fusion with
       * `fusionWeights` and the title and phrase boosts) or 'scores' (each retriever's score
       * relative to the best candidate's, plus coverage, phrase and section-title evidence, with
       * built-in weights). Default: 'scores' for the hashing fallback, 'rrf' for other models.
       */
      fusion?: 'rrf' | 'scores';
      /** maintenance_work_mem for building a model's HNSW index, e.g. 512MB (the default). */
      hnswBuildMemory?: string;
      /**
       * How much a chunk whose "Page › Section" path names the question's words gains in the
       * fused ranking, as a share of the largest possible fused score: 0 to 1, default 0.05
       * (measured on the evaluation questions); 0 turns the title boost off. RRF only: score
       * fusion (the hashing fallback's default) weighs section titles itself.
       */
      titleWeight?: number;
      /**
       * The same for a chunk in which the question's neighbouring words stand together, in
       * order, as a phrase: 0 to 1, default 0.1; 0 turns the phrase boost off. RRF only, as
       * titleWeight.
       */
      phraseWeight?: number;
      /**
       * Share of the fused score that a chunk of release notes loses ("Release Notes",
       * "Changelog", "What's new in …", "Version 1.2 (…)" headings; English and Czech), so the
       * page that explains a feature ranks above the line announcing it: 0 to 1; default 0.1
       * with score fusion (the hashing fallback's), 0 with RRF (unmeasured with a semantic
       * model); 0 turns it off. Questions about releases or versions keep release notes as they
       * rank.
       */
      releaseNotesPenalty?: number;
      /**
       * Optional local cross-encoder that rescores the top fused chunks, question and passage
       * together, and reorders them (never adding a chunk the evidence filter dropped, never
       * answering a refused question). Absent: no reranker, nothing loaded. The model is a
       * sequence-classification ONNX export for transformers.js (one relevance logit, or two
       * with "relevant" second) under `<localModelPath>/<model>/`; never downloaded.
       */
      reranker?: {
        /** Model id, also its directory under localModelPath (Xenova/ms-marco-MiniLM-L-6-v2). */
        model: string;
        /** Directory holding `<model>/`; default: askDocs.embeddings.localModelPath. */
        localModelPath?: string;
        /** Top fused chunks rescored per question (default 20). */
        candidates?: number;
        /** Tokens per question-passage pair; the passage is cut to fit (default 512). */
        maxTokens?: number;
        /** Pairs per model call (default 8). */
        batchSize?: number;
        /** ONNX weights variant, e.g. 'fp32' (default) or 'q8'. */
        dtype?: string;
        /**
         * Start without the reranker when it cannot be loaded (warned at start, reported by
         * /health). Default false: a configured reranker that does not load fails start-up.
         */
        allowFallback?: boolean;
      };
    };
    /**
     * Entity-attribute sync: visibility attributes (owners, kind, labels, spec, ...) follow the
     * catalog within about `frequency` plus one listing, without re-embedding anything.
     */
    visibilitySync?: {
      /**
       * Default true. Off: no sync task and no freshness guard; attributes follow ingestion runs
       * only, and a run whose catalog listing is empty changes nothing.
       */
      enabled?: boolean;
      /** How often the catalog is listed, e.g. { seconds: 30 } (the default) or 'PT30S'. */
      frequency?: HumanDuration | string;
      /**
       * When the last complete listing started longer ago than this, nothing is visible until a
       * sync succeeds (fail closed). Default { seconds: 90 }: one failed sync is absorbed.
       */
      maxStaleness?: HumanDuration | string;
    };
    retention?: {
      /**
       * Superseded chunk versions older than this many days are deleted (default 90), except
       * those retrieved by answers still inside the answer retention window.
       */
      chunkVersionsDays?: number;
      /**
       * Vectors of an embedding model that no backend instance has run for this many days are
       * deleted, with its HNSW index (default 7, at least 1). Instances confirm their model
       * hourly, so during a rolling change of models the old one's vectors stay while it still
       * serves; an instance on the fallback keeps its configured model's too.
       */
      unusedModelDays?: number;
      /**
       * An entity the catalog no longer lists is hidden at once; its documents, chunks and
       * vectors are deleted by the first ingestion run this many days later (default 1; 0: by
       * the run that misses it). One that comes back within that time is not read and
       * embedded again (a catalog provider's bad hour does not cost a re-index).
       */
      removedEntityDays?: number;
    };
    llm?: {
      /**
       * OpenAI-compatible endpoint, an http(s) URL, e.g. http://localhost:8080/v1; required
       * with a model (https://api.openai.com/v1 for OpenAI itself), never a default.
       */
      baseUrl?: string;
      /** @visibility secret */
      apiKey?: string;
      model?: string;
      /**
       * Per attempt (default 30000): the whole call, or when streaming the wait for the first
       * text and every gap between texts (empty keep-alive chunks do not count). At most
       * 2147483647 (Node's longest timer).
       */
      timeoutMs?: number;
      /** Extra attempts after a timeout, 5xx, 429 or a connection failure (default 1). */
      maxRetries?: number;
      /**
       * Default 0. Models that accept only their own default (OpenAI's reasoning models): 1.
       */
      temperature?: number;
      /**
       * Longest answer in tokens, sent as max_tokens (unset: the endpoint's own limit). An
       * answer cut off at it is not shown: evidence only, `incomplete` on /health.
       */
      maxTokens?: number;
      /**
       * At most `calls` model calls per user (or service) within `per`, counted from the stored
       * answers across every instance. Past it, questions get the evidence without a model
       * answer until older calls leave the window. Unset: no limit.
       */
      quotaPerUser?: {
        calls: number;
        per: HumanDuration | string;
      };
    };
    answer?: {
      /**
       * Characters of document text sent to the model (default 12000); with a model, at least
       * ingestion.maxChunkChars + 500, since a passage is sent whole or not at all.
       */
      maxContextChars?: number;
      /** Context blocks sent to the model (default 8). */
      maxBlocks?: number;
      /** Passages shown when there is no model answer (default 5). */
      maxEvidence?: number;
      /** Drop sources whose passages share too few words with the sentence citing them. */
      verifyClaims?: boolean;
      /**
       * Share of a citing sentence's content words that must occur in the source (default 0.25).
       */
      minClaimOverlap?: number;
      /** Audit records older than this are deleted, e.g. { days: 365 }. */
      retention?: { days: number };
      /** Characters per question (default 2000); longer questions get 400. */
      maxQuestionChars?: number;
      /** Distinct content words per question (default 64); more get 400. */
      maxQueryTerms?: number;
    };
    permissions?: {
      /**
       * Administrative permissions for service principals (external access tokens, other
       * plugins calling as themselves). Backstage's permission service allows every service
       * request unless its externalAccess accessRestrictions say otherwise, so ask-docs gives a
       * service `ask-docs.audit.read` or `ask-docs.ingestion.run` only when it is listed here
       * (and its accessRestrictions, if any, allow it). Default: none. Users are unaffected.
       */
      services?: Array<{
        /**
         * The service principal's subject: a static externalAccess token's `subject` as
         * configured, `external:<sub>` for a JWKS token, `plugin:<pluginId>` for a plugin.
         */
        subject: string;
        /** Any of `ask-docs.audit.read`, `ask-docs.ingestion.run`. */
        permissions: string[];
      }>;
    };
  };
}
