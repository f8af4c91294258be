import {
  AskDocsStore,
  PageWrite,
  ReplacedDocument,
  RunTakenOverError,
} from '../database/AskDocsStore';

/**
 * Writes the pages of one entity in batches: one transaction, and one rewrite of the posting
 * lists the batch's keys share, per `batchSize` pages (decision record 0011). Page tasks hand
 * their page over and go on; a result or an error reaches the page's own callbacks. A failed
 * batch is written again page by page, so one bad page fails alone; not when the run was taken
 * over (with `guard`, every write checks that it still runs).
 */
export class PageWriter {
  private queue: Array<{
    page: PageWrite;
    done: (result: ReplacedDocument) => void;
    failed: (error: unknown) => void;
  }> = [];
  private writing: Promise<void> = Promise.resolve();
  private inFlight = 0;

  constructor(
    private readonly store: Pick<AskDocsStore, 'replaceDocuments'>,
    private readonly model: { modelId: string; dimension: number },
    private readonly batchSize = 8,
    private readonly guard?: { runId: number },
  ) {}

  /**
   * Queues a page. Resolves once it is queued, unless two batches are being written: then once
   * they are (so parsed pages do not pile up in memory while the database catches up).
   */
  async add(
    page: PageWrite,
    done: (result: ReplacedDocument) => void,
    failed: (error: unknown) => void,
  ): Promise<void> {
    this.queue.push({ page, done, failed });
    if (this.queue.length >= this.batchSize) this.startBatch();
    if (this.inFlight > 1) await this.writing;
  }

  /** Writes what is queued; resolves when every page handed over so far is written or failed. */
  async flush(): Promise<void> {
    this.startBatch();
    await this.writing;
  }

  private startBatch() {
    const batch = this.queue.splice(0);
    if (batch.length === 0) return;
    this.inFlight += 1;
    this.writing = this.writing.then(async () => {
      try {
        const results = await this.store
          .replaceDocuments(
            batch.map(b => b.page),
            this.model,
            this.guard,
          )
          .catch(async e => {
            if (batch.length === 1 || e instanceof RunTakenOverError) throw e;
            return undefined;
          });
        if (results) {
          batch.forEach((b, i) => b.done(results[i]));
          return;
        }
        for (const b of batch) {
          try {
            const [result] = await this.store.replaceDocuments(
              [b.page],
              this.model,
              this.guard,
            );
            b.done(result);
          } catch (e) {
            b.failed(e);
          }
        }
      } catch (e) {
        batch.forEach(b => b.failed(e));
      } finally {
        this.inFlight -= 1;
      }
    });
  }
}
