export interface Config {
  askDocs?: {
    /** Languages with keyword analysers; documents are detected as one of them. Default ['en', 'cs']. */
    languages?: string[];
    hunspell?: {
      /** Czech dictionary (Debian hunspell-cs); loaded at run time, never bundled. */
      cs?: { affPath: string; dicPath: string };
    };
    embeddings?: {
      /** 'transformers' (local ONNX model) or 'hashing' (offline fallback, lower quality). */
      provider?: 'transformers' | 'hashing';
      /** Model id, also recorded per chunk. Default Xenova/multilingual-e5-small. */
      model?: string;
      /** Directory holding `<model>/config.json`, tokenizer and onnx files. Never downloaded. */
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
      /** Scheduler frequency, e.g. { minutes: 30 }. */
      schedule?: { frequency: { minutes?: number; hours?: number }; timeout?: { minutes?: number }; initialDelay?: { seconds?: number } };
      /** Run an ingestion right after start. */
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
      /** maintenance_work_mem for building a model's HNSW index, e.g. 512MB (the default). */
      hnswBuildMemory?: string;
    };
    llm?: {
      /** OpenAI-compatible endpoint, e.g. http://localhost:8080/v1 */
      baseUrl?: string;
      /** @visibility secret */
      apiKey?: string;
      model?: string;
      timeoutMs?: number;
      maxRetries?: number;
      temperature?: number;
      maxTokens?: number;
    };
    answer?: {
      /** Characters of document text sent to the model (default 12000). */
      maxContextChars?: number;
      /** Context blocks sent to the model (default 8). */
      maxBlocks?: number;
      /** Passages shown when there is no model answer (default 5). */
      maxEvidence?: number;
      /** Drop sources whose passages share too few words with the sentence citing them. */
      verifyClaims?: boolean;
      /** Share of a citing sentence's content words that must occur in the source (default 0.25). */
      minClaimOverlap?: number;
      /** Audit records older than this are deleted, e.g. { days: 365 }. */
      retention?: { days: number };
      maxQuestionChars?: number;
    };
  };
}
