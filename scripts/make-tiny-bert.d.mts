// Types for scripts/make-tiny-bert.mjs, so TypeScript tests and benches can import it.
export declare const TINY_BERT_SPECIAL: readonly string[]
export declare const TINY_BERT_VOCAB: readonly string[]
export declare const TINY_BERT_DEFAULTS: Readonly<{ name: string; embedDim: number; hiddenSize: number; seed: number }>

export interface TinyBertOptions {
  name?: string
  embedDim?: number
  hiddenSize?: number
  seed?: number
  maxLength?: number
}

export interface TinyBertWeights {
  vocabSize: number
  embedDim: number
  hiddenSize: number
  wordEmb: Float32Array
  typeEmb: Float32Array
  w: Float32Array
  b: Float32Array
}

export declare function tinyBertWeights(options?: TinyBertOptions): TinyBertWeights
export declare function tinyBertReference(ids: readonly number[], typeIds?: readonly number[], options?: TinyBertOptions): Float64Array[]
export declare function tinyBertIds(text: string): number[]
export declare function tinyBertOnnx(options?: TinyBertOptions): Uint8Array
export declare function writeTinyBert(
  dir: string,
  options?: TinyBertOptions,
): { name: string; dir: string; modelDir: string; onnxPath: string; hiddenSize: number; vocab: readonly string[] }
