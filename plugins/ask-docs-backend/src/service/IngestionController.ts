import { BackstageCredentials } from '@backstage/backend-plugin-api';
import {
  askDocsIngestionRunPermission,
  IngestionProgress,
} from '@askdocs/plugin-ask-docs-common';
import { AskDocsStore } from '../database/AskDocsStore';
import { emptyProgress, Ingester } from '../ingestion/Ingester';
import { AskDocsAuthorizer } from './authorization';

/** View of and trigger for ingestion runs, for holders of ask-docs.ingestion.run. */
export class IngestionController {
  constructor(
    private readonly store: AskDocsStore,
    private readonly ingester: Ingester,
    private readonly authorizer: AskDocsAuthorizer,
  ) {}

  /** Throws unless the caller holds ask-docs.ingestion.run; a failing permission check denies. */
  async authorize(credentials: BackstageCredentials): Promise<void> {
    await this.authorizer.require(
      askDocsIngestionRunPermission,
      credentials,
      'Ingestion needs the ask-docs.ingestion.run permission',
    );
  }

  async start(): Promise<{
    started: boolean;
    running: boolean;
    runId?: number;
  }> {
    const alreadyRunning = this.ingester.isRunning();
    // Not awaited: the run reports through progress(); its errors are recorded on the run.
    const run = this.ingester.run('manual');
    run.catch(() => {});
    // ...but its record exists before we answer, so a client polling progress sees this run
    // (or the one another backend instance is running: then nothing was started).
    const current = await this.ingester.currentRun();
    // No record: the run failed before it could be recorded (the database, say). That failure
    // is the answer, not a "started" with nothing to follow.
    if (current === undefined) await run;
    return {
      started: !alreadyRunning && current?.started !== false,
      running: true,
      runId: current?.runId,
    };
  }

  async progress(): Promise<IngestionProgress> {
    const run = await this.store.latestRun();
    if (!run) {
      return { runId: null, status: 'idle', ...emptyProgress() };
    }
    return {
      runId: run.runId,
      status: run.status as IngestionProgress['status'],
      trigger: run.trigger as IngestionProgress['trigger'],
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      entitiesDone: run.entitiesDone,
      pagesDone: run.pagesDone,
      pagesSkipped: run.pagesSkipped,
      chunksWritten: run.chunksWritten,
      chunksEmbedded: run.chunksEmbedded,
      chunksDeleted: run.chunksDeleted,
      chunksReanalysed: run.chunksReanalysed,
      errors: run.errors,
    };
  }
}
