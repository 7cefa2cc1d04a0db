/**
 * Anything that turns texts into vectors. `id` names backend, model, pooling, normalisation and dtype,
 * because a similarity threshold only means something for one exact embedder.
 */
export interface Embedder {
  readonly id: string
  embed(texts: string[]): Promise<Float32Array[]>
}
