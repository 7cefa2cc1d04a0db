#!/usr/bin/env node
/**
 * Writes a tiny, deterministic, BERT-shaped ONNX model that Transformers.js loads exactly like a hub
 * model, so the embedding tests exercise the real loading path without network access.
 *
 * Layout written (what `pipeline('feature-extraction', name, …)` looks for under `localModelPath`):
 *   <dir>/<name>/config.json             model_type 'bert'
 *   <dir>/<name>/tokenizer.json          WordPiece, lower-casing BERT normaliser, [PAD] [UNK] [CLS] [SEP] [MASK]
 *   <dir>/<name>/tokenizer_config.json
 *   <dir>/<name>/onnx/model.onnx         hand-encoded ONNX protobuf (no dependencies)
 *
 * The graph is position independent, so a token's hidden state depends only on the token:
 *   last_hidden_state = tanh((word_emb[input_ids] + type_emb[token_type_ids]) · W + b)
 * Inputs are `input_ids`, `attention_mask`, `token_type_ids` (int64 [batch, seq]); the output is
 * `last_hidden_state` (float32 [batch, seq, hidden]). `attention_mask` is declared (BERT has it, and
 * Transformers.js feeds every input the session declares) but unused by the graph: like a real BERT,
 * padded positions get non-zero states, so only correct mask handling in pooling keeps padding out.
 *
 * Usage: `node scripts/make-tiny-bert.mjs <dir> [name]`, or import `writeTinyBert` / `tinyBertReference`.
 * Dependency-free and deterministic: the same arguments always give byte-identical files.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

export const TINY_BERT_SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']

/** Words first, then a few continuation pieces so WordPiece has something to split. */
const WORDS = [
  'the',
  'a',
  'an',
  'of',
  'and',
  'or',
  'to',
  'in',
  'on',
  'is',
  'are',
  'was',
  'it',
  'this',
  'that',
  'with',
  'cat',
  'dog',
  'bird',
  'fish',
  'sat',
  'ran',
  'flew',
  'swam',
  'mat',
  'sofa',
  'tree',
  'river',
  'sky',
  'water',
  'paris',
  'france',
  'capital',
  'city',
  'london',
  'england',
  'berlin',
  'germany',
  'red',
  'blue',
  'green',
  'big',
  'small',
  'quick',
  'slow',
  'brown',
  'fox',
  'jumps',
  'over',
  'lazy',
  'model',
  'answer',
  'question',
  'retrieval',
  'document',
  'search',
  'vector',
  'token',
  'test',
  'data',
  'play',
  'walk',
  'talk',
  'read',
  'write',
  'run',
  'jump',
  'sing',
  '.',
  ',',
  '!',
  '?',
  '##s',
  '##ing',
  '##ed',
  '##er',
  '##ly',
]

export const TINY_BERT_VOCAB = [...TINY_BERT_SPECIAL, ...WORDS]

/** Defaults: small enough to write in a millisecond, wide enough that different texts clearly differ. */
export const TINY_BERT_DEFAULTS = Object.freeze({ name: 'tiny-bert', embedDim: 24, hiddenSize: 32, seed: 20240611 })

// ---------------------------------------------------------------------------------------------
// Weights: a seeded mulberry32 stream rounded to float32, so JS and ONNX Runtime see the same numbers.

function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The model's parameters as Float32Arrays (row-major). */
export function tinyBertWeights(options = {}) {
  const { embedDim, hiddenSize, seed } = { ...TINY_BERT_DEFAULTS, ...options }
  const rand = mulberry32(seed)
  const fill = (n, scale) => Float32Array.from({ length: n }, () => (rand() * 2 - 1) * scale)
  const vocabSize = TINY_BERT_VOCAB.length
  return {
    vocabSize,
    embedDim,
    hiddenSize,
    wordEmb: fill(vocabSize * embedDim, 1),
    typeEmb: fill(2 * embedDim, 0.1),
    // 1/sqrt(fan-in) keeps tanh out of saturation, so vectors stay distinct
    w: fill(embedDim * hiddenSize, 1 / Math.sqrt(embedDim)),
    b: fill(hiddenSize, 0.1),
  }
}

/**
 * The graph computed in plain JS (double precision over the float32 weights), for tests:
 * hidden state of each token id, `tanh((word_emb[id] + type_emb[type]) · W + b)`.
 */
export function tinyBertReference(ids, typeIds, options = {}) {
  const p = tinyBertWeights(options)
  return ids.map((id, i) => {
    const type = typeIds?.[i] ?? 0
    const x = new Float64Array(p.embedDim)
    for (let e = 0; e < p.embedDim; e++) x[e] = p.wordEmb[id * p.embedDim + e] + p.typeEmb[type * p.embedDim + e]
    const out = new Float64Array(p.hiddenSize)
    for (let h = 0; h < p.hiddenSize; h++) {
      let s = p.b[h]
      for (let e = 0; e < p.embedDim; e++) s += x[e] * p.w[e * p.hiddenSize + h]
      out[h] = Math.tanh(s)
    }
    return out
  })
}

/** Token ids of whitespace-separated vocabulary words, wrapped in [CLS] … [SEP] (what the tokenizer gives). */
export function tinyBertIds(text) {
  const ids = [TINY_BERT_VOCAB.indexOf('[CLS]')]
  for (const word of text.toLowerCase().split(/ +/).filter(Boolean)) {
    const id = TINY_BERT_VOCAB.indexOf(word)
    ids.push(id < 0 ? TINY_BERT_VOCAB.indexOf('[UNK]') : id)
  }
  ids.push(TINY_BERT_VOCAB.indexOf('[SEP]'))
  return ids
}

// ---------------------------------------------------------------------------------------------
// Minimal protobuf writer: just the wire types ONNX needs (varint = 0, length-delimited = 2).

function varint(n) {
  let v = BigInt(n)
  if (v < 0n) v += 1n << 64n // int64 two's complement, as protobuf encodes negative varints
  const out = []
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80)
    v >>= 7n
  }
  out.push(Number(v))
  return Uint8Array.from(out)
}

function concat(parts) {
  const total = parts.reduce((n, p) => n + p.length, 0)
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const fieldVarint = (field, n) => concat([varint((field << 3) | 0), varint(n)])
const fieldBytes = (field, bytes) => concat([varint((field << 3) | 2), varint(bytes.length), bytes])
const fieldString = (field, text) => fieldBytes(field, new TextEncoder().encode(text))
const fieldMessage = (field, parts) => fieldBytes(field, concat(parts))

// onnx.proto field numbers and enums (onnx/onnx.proto3)
const ELEM_FLOAT = 1
const ELEM_INT64 = 7

function tensor(name, dims, data) {
  // TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9 (little-endian)
  const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
  return [...dims.map((d) => fieldVarint(1, d)), fieldVarint(2, ELEM_FLOAT), fieldString(8, name), fieldBytes(9, raw)]
}

function valueInfo(name, elemType, dims) {
  // ValueInfoProto{name = 1, type = 2}; TypeProto{tensor_type = 1}; Tensor{elem_type = 1, shape = 2};
  // TensorShapeProto{dim = 1}; Dimension{dim_value = 1 | dim_param = 2}
  const shape = dims.map((d) => fieldMessage(1, [typeof d === 'number' ? fieldVarint(1, d) : fieldString(2, d)]))
  return [fieldString(1, name), fieldMessage(2, [fieldMessage(1, [fieldVarint(1, elemType), fieldMessage(2, shape)])])]
}

function node(opType, inputs, outputs, name, attributes = []) {
  // NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5
  return [...inputs.map((i) => fieldString(1, i)), ...outputs.map((o) => fieldString(2, o)), fieldString(3, name), fieldString(4, opType), ...attributes]
}

function intAttribute(name, value) {
  // AttributeProto: name = 1, i = 3, type = 20 (INT = 2)
  return fieldMessage(5, [fieldString(1, name), fieldVarint(3, value), fieldVarint(20, 2)])
}

/** The ONNX file as bytes. */
export function tinyBertOnnx(options = {}) {
  const p = tinyBertWeights(options)
  const batchSeq = ['batch_size', 'sequence_length']
  const graph = [
    fieldMessage(1, node('Gather', ['word_embeddings', 'input_ids'], ['word'], 'word_lookup', [intAttribute('axis', 0)])),
    fieldMessage(1, node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type'], 'type_lookup', [intAttribute('axis', 0)])),
    fieldMessage(1, node('Add', ['word', 'type'], ['embedded'], 'embed_sum')),
    fieldMessage(1, node('MatMul', ['embedded', 'dense_weight'], ['projected'], 'dense')),
    fieldMessage(1, node('Add', ['projected', 'dense_bias'], ['biased'], 'dense_bias_add')),
    fieldMessage(1, node('Tanh', ['biased'], ['last_hidden_state'], 'activation')),
    fieldString(2, 'tiny_bert'),
    fieldMessage(5, tensor('word_embeddings', [p.vocabSize, p.embedDim], p.wordEmb)),
    fieldMessage(5, tensor('token_type_embeddings', [2, p.embedDim], p.typeEmb)),
    fieldMessage(5, tensor('dense_weight', [p.embedDim, p.hiddenSize], p.w)),
    fieldMessage(5, tensor('dense_bias', [p.hiddenSize], p.b)),
    fieldMessage(11, valueInfo('input_ids', ELEM_INT64, batchSeq)),
    fieldMessage(11, valueInfo('attention_mask', ELEM_INT64, batchSeq)),
    fieldMessage(11, valueInfo('token_type_ids', ELEM_INT64, batchSeq)),
    fieldMessage(12, valueInfo('last_hidden_state', ELEM_FLOAT, [...batchSeq, p.hiddenSize])),
  ]
  // ModelProto: ir_version = 1, producer_name = 2, producer_version = 3, graph = 7, opset_import = 8
  return concat([
    fieldVarint(1, 8),
    fieldString(2, 'rag-matchers make-tiny-bert'),
    fieldString(3, '1'),
    fieldMessage(7, graph),
    fieldMessage(8, [fieldString(1, ''), fieldVarint(2, 17)]),
  ])
}

function tokenizerJson() {
  const vocab = Object.fromEntries(TINY_BERT_VOCAB.map((token, id) => [token, id]))
  const special = (token) => ({ id: token, ids: [vocab[token]], tokens: [token] })
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_BERT_SPECIAL.map((content) => ({
      id: vocab[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': special('[CLS]'), '[SEP]': special('[SEP]') },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  }
}

function configJson(p, maxLength) {
  return {
    architectures: ['BertModel'],
    model_type: 'bert',
    vocab_size: p.vocabSize,
    hidden_size: p.hiddenSize,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: p.hiddenSize,
    max_position_embeddings: maxLength,
    type_vocab_size: 2,
    pad_token_id: 0,
  }
}

/**
 * Writes the model folder and returns its paths.
 * @param {string} dir        the folder to use as Transformers.js `localModelPath`
 * @param {{ name?: string, embedDim?: number, hiddenSize?: number, seed?: number, maxLength?: number }} [options]
 */
export function writeTinyBert(dir, options = {}) {
  const { name, ...rest } = { ...TINY_BERT_DEFAULTS, ...options }
  const maxLength = options.maxLength ?? 128
  const p = tinyBertWeights(rest)
  const modelDir = join(resolve(dir), name)
  mkdirSync(join(modelDir, 'onnx'), { recursive: true })
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`
  writeFileSync(join(modelDir, 'config.json'), json(configJson(p, maxLength)))
  writeFileSync(join(modelDir, 'tokenizer.json'), json(tokenizerJson()))
  writeFileSync(
    join(modelDir, 'tokenizer_config.json'),
    json({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: maxLength,
      clean_up_tokenization_spaces: true,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  )
  const onnxPath = join(modelDir, 'onnx', 'model.onnx')
  writeFileSync(onnxPath, tinyBertOnnx(rest))
  return { name, dir: resolve(dir), modelDir, onnxPath, hiddenSize: p.hiddenSize, vocab: TINY_BERT_VOCAB }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [dir, name] = process.argv.slice(2)
  if (!dir) {
    console.error('usage: node scripts/make-tiny-bert.mjs <dir> [name]')
    process.exit(2)
  }
  const out = writeTinyBert(dir, name ? { name } : {})
  console.log(`wrote ${out.modelDir}`)
}
