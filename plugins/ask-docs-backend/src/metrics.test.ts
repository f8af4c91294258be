import { metricsServiceMock } from '@backstage/backend-test-utils/alpha';
import { AskDocsMetrics } from './metrics';

/** The instruments by name, as the mock metrics service created them. */
function instruments(mock: ReturnType<typeof metricsServiceMock.mock>) {
  const byName = new Map<string, any>();
  for (const kind of ['createCounter', 'createHistogram'] as const) {
    (mock[kind] as jest.Mock).mock.calls.forEach(([name], i) =>
      byName.set(name, (mock[kind] as jest.Mock).mock.results[i].value),
    );
  }
  return byName;
}

describe('AskDocsMetrics', () => {
  it('counts an answer by status and groundedness, and a model failure by reason', () => {
    const mock = metricsServiceMock.mock();
    const metrics = AskDocsMetrics.create(mock);
    const m = instruments(mock);
    metrics.answered({ status: 'answered', grounded: true, seconds: 1.5 });
    metrics.answered({
      status: 'evidence_only',
      grounded: false,
      seconds: 30,
      modelFailure: 'timeout',
    });
    expect(m.get('ask_docs.answers').add.mock.calls).toEqual([
      [1, { status: 'answered', grounded: true }],
      [1, { status: 'evidence_only', grounded: false }],
    ]);
    expect(m.get('ask_docs.answer.duration').record.mock.calls).toEqual([
      [1.5, { status: 'answered' }],
      [30, { status: 'evidence_only' }],
    ]);
    expect(m.get('ask_docs.model.failures').add.mock.calls).toEqual([
      [1, { reason: 'timeout' }],
    ]);
    // Seconds, as OpenTelemetry's duration instruments are.
    expect(mock.createHistogram).toHaveBeenCalledWith(
      'ask_docs.answer.duration',
      expect.objectContaining({ unit: 's' }),
    );
  });

  it('counts a question the model quota held, and no other', () => {
    const mock = metricsServiceMock.mock();
    const metrics = AskDocsMetrics.create(mock);
    const m = instruments(mock);
    metrics.answered({ status: 'answered', grounded: true, seconds: 1 });
    metrics.answered({
      status: 'evidence_only',
      grounded: false,
      seconds: 0.2,
      quotaExceeded: true,
    });
    expect(m.get('ask_docs.model.quota_exceeded').add.mock.calls).toEqual([
      [1],
    ]);
    expect(m.get('ask_docs.model.failures').add).not.toHaveBeenCalled();
  });

  it('counts what a run did, a failed run too', () => {
    const mock = metricsServiceMock.mock();
    const metrics = AskDocsMetrics.create(mock);
    const m = instruments(mock);
    metrics.ingestionRun({
      outcome: 'failed',
      seconds: 42,
      progress: {
        entitiesDone: 3,
        pagesDone: 10,
        pagesSkipped: 7,
        chunksWritten: 12,
        chunksEmbedded: 11,
        chunksReanalysed: 0,
        chunksDeleted: 2,
        errors: [{ message: 'run aborted: lost the database' }],
      },
    });
    expect(m.get('ask_docs.ingestion.runs').add).toHaveBeenCalledWith(1, {
      outcome: 'failed',
    });
    expect(
      m.get('ask_docs.ingestion.run.duration').record,
    ).toHaveBeenCalledWith(42, { outcome: 'failed' });
    expect(m.get('ask_docs.ingestion.pages').add.mock.calls).toEqual([
      [3, { result: 'indexed' }],
      [7, { result: 'unchanged' }],
    ]);
    expect(m.get('ask_docs.ingestion.chunks').add.mock.calls).toEqual([
      [12, { operation: 'written' }],
      [11, { operation: 'embedded' }],
      [0, { operation: 'reanalysed' }],
      [2, { operation: 'deleted' }],
    ]);
    expect(m.get('ask_docs.ingestion.errors').add).toHaveBeenCalledWith(1);
  });
});
