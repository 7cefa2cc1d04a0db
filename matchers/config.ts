import type { Embedder } from '../src/embeddings/types.js'
import type { Judge } from '../src/judge/types.js'

/**
 * Defaults for the async matchers, set once in a setup file:
 *
 *   import { configure } from 'rag-matchers/matchers'
 *   configure({ judge: ollamaJudge({ model: 'llama3.1:8b' }) })
 *
 * This is the only module-level state in the package, and it lives in the matcher layer, not the core.
 */
export interface RagMatchersConfig {
  embedder?: Embedder
  judge?: Judge
  /** Folder for the judge cache and other committed artefacts, relative to the test file when not absolute. */
  judgeCacheDir?: string
}

const KEY = Symbol.for('rag-matchers.config')
type Holder = { [KEY]?: RagMatchersConfig }

// Kept on globalThis so the ESM and CJS copies of this module (the dual-package hazard) share one config.
function holder(): RagMatchersConfig {
  const g = globalThis as Holder
  g[KEY] ??= {}
  return g[KEY]
}

export function configure(options: Partial<RagMatchersConfig>): void {
  Object.assign(holder(), options)
}

export function getConfig(): Readonly<RagMatchersConfig> {
  return holder()
}

/** Clears the configuration; for tests. */
export function resetConfig(): void {
  const config = holder()
  for (const key of Object.keys(config)) delete (config as Record<string, unknown>)[key]
}
