import fs from 'node:fs/promises';
import path from 'node:path';
import { ProtoWriter } from './protobufWriter';
import { seededRandom } from '../../testUtils/seededRandom';

// onnx.proto enum values used below.
const ELEM_FLOAT = 1;
const ELEM_INT64 = 7;
const ATTR_INT = 2;

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

/** Words the tiny tokenizer knows; anything else becomes [UNK] or word pieces. */
const DEFAULT_WORDS = `
  query passage : . , ?
  how do i deploy the service to production database backup restore configure logging
  cat dog weather is sunny today
  a b c d e f g h x y z
  nasazeni sluzby do produkce jak zalohovat databazi
  ##s ##ing ##ed`
  .trim()
  .split(/\s+/);

export interface TinyBertModelOptions {
  /** Model id, also the sub-directory created under `dir`. */
  modelId?: string;
  dimension?: number;
  words?: string[];
  /** Seed for the embedding table, so two builds can be made to differ deliberately. */
  seed?: number;
  modelMaxLength?: number;
  /**
   * Writes a sequence-classification model (a cross-encoder) instead of an encoder: see
   * encodeTinyCrossEncoderOnnx for what its logits are.
   */
  crossEncoder?: TinyCrossEncoderHead;
}

export interface TinyCrossEncoderHead {
  /** 1: one relevance logit per pair; 2: (not relevant, relevant). Default 1. */
  labels?: number;
  /** Added to the relevance logit (default 0). */
  bias?: number;
}

export interface TinyBertModel {
  /** Pass as `localModelPath`. */
  localModelPath: string;
  modelId: string;
  dimension: number;
  vocab: Record<string, number>;
  modelDir: string;
}

function floatTensor(
  w: ProtoWriter,
  name: string,
  dims: number[],
  values: Float32Array,
): void {
  for (const d of dims) w.varint(1, d);
  w.varint(2, ELEM_FLOAT);
  w.string(8, name);
  w.bytes(
    9,
    new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  );
}

function int64Tensor(w: ProtoWriter, name: string, values: bigint[]): void {
  w.varint(1, values.length);
  w.varint(2, ELEM_INT64);
  w.string(8, name);
  w.bytes(9, new Uint8Array(BigInt64Array.from(values).buffer));
}

function valueInfo(
  w: ProtoWriter,
  name: string,
  elemType: number,
  dims: Array<string | number>,
): void {
  w.string(1, name);
  w.message(2, type =>
    type.message(1, tensor => {
      tensor.varint(1, elemType);
      tensor.message(2, shape => {
        for (const d of dims) {
          shape.message(1, dim =>
            typeof d === 'number' ? dim.varint(1, d) : dim.string(2, d),
          );
        }
      });
    }),
  );
}

function node(
  w: ProtoWriter,
  opType: string,
  inputs: string[],
  outputs: string[],
  intAttrs: Record<string, number> = {},
): void {
  for (const i of inputs) w.string(1, i);
  for (const o of outputs) w.string(2, o);
  w.string(3, `${opType}_${outputs[0]}`);
  w.string(4, opType);
  for (const [name, value] of Object.entries(intAttrs)) {
    w.message(5, a => a.string(1, name).varint(3, value).varint(20, ATTR_INT));
  }
}

/**
 * Encodes a BERT-shaped ONNX graph: word + token-type embedding lookups, tanh, then the attention
 * mask zeroes padded positions. It has the same inputs and output name as an exported BERT encoder,
 * so transformers.js and onnxruntime treat it exactly like a real one.
 */
export function encodeTinyBertOnnx(
  vocabSize: number,
  dimension: number,
  seed: number,
): Uint8Array {
  // Seeded, so the embedding table is identical on every build.
  const rand = seededRandom(seed);
  const words = new Float32Array(vocabSize * dimension).map(
    () => rand() * 2 - 1,
  );
  const types = new Float32Array(2 * dimension).map(
    () => (rand() * 2 - 1) * 0.1,
  );

  const model = new ProtoWriter();
  model.varint(1, 8); // ir_version
  model.string(2, 'ask-docs-tiny-bert-test');
  model.message(8, op => op.string(1, '').varint(2, 13)); // default opset 13
  model.message(7, g => {
    g.message(1, n =>
      node(n, 'Gather', ['word_embeddings', 'input_ids'], ['word_vectors']),
    );
    g.message(1, n =>
      node(
        n,
        'Gather',
        ['token_type_embeddings', 'token_type_ids'],
        ['type_vectors'],
      ),
    );
    g.message(1, n =>
      node(n, 'Add', ['word_vectors', 'type_vectors'], ['summed']),
    );
    g.message(1, n => node(n, 'Tanh', ['summed'], ['activated']));
    g.message(1, n =>
      node(n, 'Cast', ['attention_mask'], ['mask_float'], { to: ELEM_FLOAT }),
    );
    g.message(1, n =>
      node(n, 'Unsqueeze', ['mask_float', 'mask_axes'], ['mask_3d']),
    );
    g.message(1, n =>
      node(n, 'Mul', ['activated', 'mask_3d'], ['last_hidden_state']),
    );
    g.string(2, 'tiny_bert');
    g.message(5, t =>
      floatTensor(t, 'word_embeddings', [vocabSize, dimension], words),
    );
    g.message(5, t =>
      floatTensor(t, 'token_type_embeddings', [2, dimension], types),
    );
    g.message(5, t => int64Tensor(t, 'mask_axes', [2n]));
    for (const input of ['input_ids', 'attention_mask', 'token_type_ids']) {
      g.message(11, v =>
        valueInfo(v, input, ELEM_INT64, ['batch_size', 'sequence_length']),
      );
    }
    g.message(12, v =>
      valueInfo(v, 'last_hidden_state', ELEM_FLOAT, [
        'batch_size',
        'sequence_length',
        dimension,
      ]),
    );
  });
  return model.finish();
}

/**
 * A BERT-shaped cross-encoder whose score is known exactly: each token's vector is one-hot
 * (zero for the tokens in `uncounted`), so the dot product of the summed first-segment
 * (question) vectors and the summed second-segment (passage) vectors counts matching token
 * pairs; padding is masked out. [SEP] counts, so a pair that keeps its closing separator scores
 * one more than one cut through it. The logits are [batch, labels]: with one label that count
 * plus `bias`; with two, (-bias / 2, count + bias / 2), whose difference is again count + bias.
 */
export function encodeTinyCrossEncoderOnnx(
  vocabSize: number,
  uncounted: number[],
  head: TinyCrossEncoderHead,
): Uint8Array {
  const labels = head.labels ?? 1;
  const bias = head.bias ?? 0;
  const oneHot = new Float32Array(vocabSize * vocabSize);
  for (let i = 0; i < vocabSize; i++) oneHot[i * vocabSize + i] = 1;
  for (const i of uncounted) oneHot[i * vocabSize + i] = 0;
  // The relevance label is the last one; any earlier label reads nothing.
  const weights = new Float32Array(vocabSize * labels);
  for (let d = 0; d < vocabSize; d++) weights[d * labels + labels - 1] = 1;
  const biases = new Float32Array(labels);
  if (labels === 1) biases[0] = bias;
  else {
    biases[0] = -bias / 2;
    biases[labels - 1] = bias / 2;
  }

  const model = new ProtoWriter();
  model.varint(1, 8); // ir_version
  model.string(2, 'ask-docs-tiny-cross-encoder-test');
  model.message(8, op => op.string(1, '').varint(2, 13)); // default opset 13
  model.message(7, g => {
    const add = (op: string, ins: string[], out: string, attrs = {}) =>
      g.message(1, n => node(n, op, ins, [out], attrs));
    add('Gather', ['word_embeddings', 'input_ids'], 'vectors');
    add('Cast', ['attention_mask'], 'mask', { to: ELEM_FLOAT });
    add('Cast', ['token_type_ids'], 'types', { to: ELEM_FLOAT });
    add('Mul', ['mask', 'types'], 'second');
    add('Sub', ['mask', 'second'], 'first');
    for (const segment of ['first', 'second']) {
      add('Unsqueeze', [segment, 'last_axis'], `${segment}_3d`);
      add('Mul', ['vectors', `${segment}_3d`], `${segment}_vectors`);
      add(
        'ReduceSum',
        [`${segment}_vectors`, 'sequence_axis'],
        `${segment}_sum`,
        {
          keepdims: 0,
        },
      );
    }
    add('Mul', ['first_sum', 'second_sum'], 'matches');
    add('MatMul', ['matches', 'classifier_weight'], 'unbiased');
    add('Add', ['unbiased', 'classifier_bias'], 'logits');
    g.string(2, 'tiny_cross_encoder');
    g.message(5, t =>
      floatTensor(t, 'word_embeddings', [vocabSize, vocabSize], oneHot),
    );
    g.message(5, t =>
      floatTensor(t, 'classifier_weight', [vocabSize, labels], weights),
    );
    g.message(5, t => floatTensor(t, 'classifier_bias', [labels], biases));
    g.message(5, t => int64Tensor(t, 'last_axis', [2n]));
    g.message(5, t => int64Tensor(t, 'sequence_axis', [1n]));
    for (const input of ['input_ids', 'attention_mask', 'token_type_ids']) {
      g.message(11, v =>
        valueInfo(v, input, ELEM_INT64, ['batch_size', 'sequence_length']),
      );
    }
    g.message(12, v =>
      valueInfo(v, 'logits', ELEM_FLOAT, ['batch_size', labels]),
    );
  });
  return model.finish();
}

function tokenizerJson(
  vocab: Record<string, number>,
  cls: number,
  sep: number,
) {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(content => ({
      id: vocab[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [cls], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [sep], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

/**
 * Writes a tiny but genuine BERT model directory (config, WordPiece tokenizer, ONNX graph) under
 * `dir/<modelId>/`, laid out as transformers.js expects for local models. No download involved.
 */
export async function buildTinyBertModel(
  dir: string,
  options: TinyBertModelOptions = {},
): Promise<TinyBertModel> {
  const modelId = options.modelId ?? 'test/tiny-bert';
  const dimension = options.dimension ?? 16;
  const seed = options.seed ?? 42;
  const tokens = [
    ...SPECIAL_TOKENS,
    ...new Set(options.words ?? DEFAULT_WORDS),
  ];
  const vocab: Record<string, number> = {};
  tokens.forEach((t, i) => {
    vocab[t] = i;
  });

  const modelDir = path.join(dir, modelId);
  await fs.mkdir(path.join(modelDir, 'onnx'), { recursive: true });

  const head = options.crossEncoder;
  const labels = head?.labels ?? 1;
  const config = {
    architectures: [head ? 'BertForSequenceClassification' : 'BertModel'],
    ...(head
      ? {
          id2label: Object.fromEntries(
            Array.from({ length: labels }, (_, i) => [i, `LABEL_${i}`]),
          ),
        }
      : {}),
    model_type: 'bert',
    hidden_size: dimension,
    num_attention_heads: 1,
    num_hidden_layers: 0,
    intermediate_size: dimension,
    vocab_size: tokens.length,
    type_vocab_size: 2,
    max_position_embeddings: options.modelMaxLength ?? 64,
    pad_token_id: vocab['[PAD]'],
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: options.modelMaxLength ?? 64,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  };

  await Promise.all([
    fs.writeFile(
      path.join(modelDir, 'config.json'),
      JSON.stringify(config, null, 2),
    ),
    fs.writeFile(
      path.join(modelDir, 'tokenizer_config.json'),
      JSON.stringify(tokenizerConfig, null, 2),
    ),
    fs.writeFile(
      path.join(modelDir, 'tokenizer.json'),
      JSON.stringify(tokenizerJson(vocab, vocab['[CLS]'], vocab['[SEP]'])),
    ),
    fs.writeFile(
      path.join(modelDir, 'onnx', 'model.onnx'),
      head
        ? encodeTinyCrossEncoderOnnx(
            tokens.length,
            ['[PAD]', '[UNK]', '[CLS]', '[MASK]'].map(t => vocab[t]),
            head,
          )
        : encodeTinyBertOnnx(tokens.length, dimension, seed),
    ),
  ]);

  return { localModelPath: dir, modelId, dimension, vocab, modelDir };
}
