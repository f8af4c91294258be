import type {
  MetricsService,
  MetricsServiceCounter,
  MetricsServiceHistogram,
} from '@backstage/backend-plugin-api/alpha';
import type { RunProgress } from './database/AskDocsStore';

/** Bucket bounds in seconds: an answer takes a fraction of a second to a minute (two retries). */
const ANSWER_SECONDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];
/** A run takes seconds on an unchanged catalog, hours for a first run at 100k chunks. */
const RUN_SECONDS = [1, 10, 60, 300, 900, 1800, 3600, 7200, 14400, 28800];

/**
 * The plugin's OpenTelemetry instruments, from Backstage's metrics service, which scopes them to
 * the plugin. The names start with `ask_docs.` too: a Prometheus export leaves the scope out of
 * the name, and "answers" alone would say nothing there. Attributes are a few fixed values
 * (status, reason, outcome): never a question, user or document.
 */
export class AskDocsMetrics {
  private constructor(
    private readonly answers: MetricsServiceCounter,
    private readonly answerDuration: MetricsServiceHistogram,
    private readonly modelFailures: MetricsServiceCounter,
    private readonly quotaHolds: MetricsServiceCounter,
    private readonly runs: MetricsServiceCounter,
    private readonly runDuration: MetricsServiceHistogram,
    private readonly pages: MetricsServiceCounter,
    private readonly chunks: MetricsServiceCounter,
    private readonly runErrors: MetricsServiceCounter,
  ) {}

  static create(metrics: MetricsService): AskDocsMetrics {
    return new AskDocsMetrics(
      metrics.createCounter('ask_docs.answers', {
        description:
          'Questions asked, by how they ended (answered, evidence_only, ' +
          'not_in_knowledge_base; abandoned: the client left; failed: an error) and whether ' +
          'the answer is grounded',
      }),
      metrics.createHistogram('ask_docs.answer.duration', {
        description:
          'Time from an accepted question to its answer (retrieval and model)',
        unit: 's',
        advice: { explicitBucketBoundaries: ANSWER_SECONDS },
      }),
      metrics.createCounter('ask_docs.model.failures', {
        description:
          'Answers the language model failed to give, by reason (evidence was shown instead)',
      }),
      metrics.createCounter('ask_docs.model.quota_exceeded', {
        description:
          'Questions the model was not asked because the asker had used their quota ' +
          '(askDocs.llm.quotaPerUser; evidence was shown instead)',
      }),
      metrics.createCounter('ask_docs.ingestion.runs', {
        description: 'Ingestion runs of this instance, by outcome',
      }),
      metrics.createHistogram('ask_docs.ingestion.run.duration', {
        description: 'Duration of the ingestion runs of this instance',
        unit: 's',
        advice: { explicitBucketBoundaries: RUN_SECONDS },
      }),
      metrics.createCounter('ask_docs.ingestion.pages', {
        description:
          'Pages read by ingestion: indexed (new or changed) or unchanged (skipped)',
      }),
      metrics.createCounter('ask_docs.ingestion.chunks', {
        description:
          'Chunks written, embedded, re-analysed or deleted by ingestion',
      }),
      metrics.createCounter('ask_docs.ingestion.errors', {
        description:
          "Errors recorded on ingestion runs: an entity's, a page's, or the run's own " +
          '(the run record has them)',
      }),
    );
  }

  /** One answer, however asked (REST, stream, agent action, node library). */
  answered(o: {
    status: string;
    grounded: boolean;
    seconds: number;
    modelFailure?: string;
    quotaExceeded?: boolean;
  }): void {
    this.answers.add(1, { status: o.status, grounded: o.grounded });
    this.answerDuration.record(o.seconds, { status: o.status });
    if (o.modelFailure) this.modelFailures.add(1, { reason: o.modelFailure });
    if (o.quotaExceeded) this.quotaHolds.add(1);
  }

  /** A run of this instance that ended; a run that failed still counts what it did. */
  ingestionRun(o: {
    outcome: 'succeeded' | 'failed';
    seconds: number;
    progress: RunProgress;
  }): void {
    const { progress } = o;
    this.runs.add(1, { outcome: o.outcome });
    this.runDuration.record(o.seconds, { outcome: o.outcome });
    this.pages.add(progress.pagesDone - progress.pagesSkipped, {
      result: 'indexed',
    });
    this.pages.add(progress.pagesSkipped, { result: 'unchanged' });
    this.chunks.add(progress.chunksWritten, { operation: 'written' });
    this.chunks.add(progress.chunksEmbedded, { operation: 'embedded' });
    this.chunks.add(progress.chunksReanalysed, { operation: 'reanalysed' });
    this.chunks.add(progress.chunksDeleted, { operation: 'deleted' });
    this.runErrors.add(progress.errors.length);
  }
}
