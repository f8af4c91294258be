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
      /** Characters of document text sent to the model. */
      maxContextChars?: number;
      /** Drop sources whose passage does not support the citing sentence. */
      verifyClaims?: boolean;
    };
    answers?: {
      /** Audit records older than this are deleted, e.g. { days: 365 }. */
      retention?: { days: number };
      maxQuestionChars?: number;
    };
  };
}
