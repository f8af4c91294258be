/* The evaluation's sentence-encoder adapter (test/eval/sentenceEncoderEmbedder.ts). */
import { dot } from '../../plugins/ask-docs-backend/src/embedding';
import {
  SentenceEncoderEmbedder,
  SentenceEncoderModule,
} from '../eval/sentenceEncoderEmbedder';

/** A scripted encoder: records the batches it was given and returns what `vector` says. */
function scripted(vector: (text: string) => number[]) {
  const batches: string[][] = [];
  const module: SentenceEncoderModule = {
    weightsVersion: '9.9.9',
    load: async () => ({
      embed: async (input: string[]) => {
        batches.push(input);
        return input.map(vector);
      },
    }),
  };
  return { module, batches };
}

const constant = (value: number) => () =>
  Array.from({ length: 512 }, () => value);

describe('SentenceEncoderEmbedder (scripted encoder)', () => {
  it('names the weights version in the model id, so an upgrade re-embeds', async () => {
    const { module } = scripted(constant(1));
    const embedder = await SentenceEncoderEmbedder.load({ module });
    expect(embedder.modelId).toBe('universal-sentence-encoder-lite-en@9.9.9');
    expect(embedder.kind).toBe('transformers'); // scored with the semantic-model defaults
    expect(embedder.dimension).toBe(512);
  });

  it('batches passages, truncates long texts and never sends an empty one', async () => {
    const { module, batches } = scripted(constant(1));
    const embedder = await SentenceEncoderEmbedder.load({
      module,
      batchSize: 2,
      maxChars: 5,
    });
    const vectors = await embedder.embedPassages([
      'abcdefgh',
      '',
      '   ',
      'xy',
      'z',
    ]);
    expect(vectors).toHaveLength(5);
    expect(batches).toEqual([['abcde', '.'], ['.', 'xy'], ['z']]);
    for (const v of vectors) expect(dot(v, v)).toBeCloseTo(1, 10);
  });

  it('rejects vectors of the wrong size or with non-finite values', async () => {
    for (const bad of [
      () => [1, 2, 3],
      () => Array.from({ length: 512 }, (_, i) => (i === 7 ? NaN : 1)),
    ]) {
      const embedder = await SentenceEncoderEmbedder.load({
        module: scripted(bad).module,
      });
      await expect(embedder.embedQuery('question')).rejects.toThrow(/invalid/);
    }
  });

  it('rejects an encoder that drops texts', async () => {
    const module: SentenceEncoderModule = {
      weightsVersion: '1',
      load: async () => ({
        embed: async (input: string[]) => input.slice(1).map(constant(1)),
      }),
    };
    const embedder = await SentenceEncoderEmbedder.load({ module });
    await expect(embedder.embedPassages(['a', 'b'])).rejects.toThrow(
      /1 vectors for 2 texts/,
    );
  });
});

describe('SentenceEncoderEmbedder (the packaged weights, no download)', () => {
  let embedder: SentenceEncoderEmbedder;
  beforeAll(async () => {
    embedder = await SentenceEncoderEmbedder.load();
  }, 120_000);

  it('is deterministic and returns unit vectors', async () => {
    const [a, b] = await embedder.embedPassages([
      'Roll back a failed release.',
      'Roll back a failed release.',
    ]);
    expect(a).toEqual(b);
    expect(dot(a, a)).toBeCloseTo(1, 6);
  });

  /** The question's similarity to each of two passages. */
  async function similarities(question: string, passages: [string, string]) {
    const q = await embedder.embedQuery(question);
    return (await embedder.embedPassages(passages)).map(p => dot(q, p));
  }

  it('ranks by meaning where the words differ', async () => {
    const [multicolumn, compositeType] = await similarities(
      'does column order matter in a composite btree index',
      [
        'A multicolumn B-tree index is most efficient when there are constraints on the leading ' +
          '(leftmost) columns.',
        'A composite type represents the structure of a row or record; it is a list of field ' +
          'names and their data types.',
      ],
    );
    // The passage sharing the word "composite" is about something else.
    expect(multicolumn).toBeGreaterThan(compositeType);

    const [cancelBackend, unrelated] = await similarities(
      'stop a slow query of another user but keep them connected',
      [
        'pg_cancel_backend cancels the current query of the session whose backend process has ' +
          'the specified process ID.',
        'The money type stores a currency amount with a fixed fractional precision.',
      ],
    );
    expect(cancelBackend).toBeGreaterThan(unrelated + 0.1);
  }, 60_000);
});
