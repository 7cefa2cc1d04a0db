import type { Embedder } from '../src/embeddings/types.js'
import type { Judge } from '../src/judge/types.js'
import { MetricInputError } from '../src/errors.js'
import { MAX_REPEAT as MAX_TRIALS } from '../src/judge/metrics/shared.js'

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
  /**
   * Trials for every judge-backed assertion: each asks its judge `trials` times (seeds `seed … seed+trials−1`,
   * each its own cache entry) and reports mean, min, max, pass rate, flip rate and self-consistency
   * (judge-trials.ts). Overridden by a matcher's `repeat` and a `describeEvalSet` block's `trials`; the
   * environment variable `RAG_MATCHERS_TRIALS` applies when this is unset. An integer from 1 to 100.
   * Embedding and lexical matchers are deterministic and never repeat.
   */
  trials?: number
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
  const trials = (options as { trials?: unknown } | null)?.trials
  // Refused here, where it is set, rather than in every assertion that would read it.
  if (trials !== undefined && !(Number.isSafeInteger(trials) && (trials as number) >= 1 && (trials as number) <= MAX_TRIALS)) {
    throw new MetricInputError('configure', 'trials', `an integer from 1 to ${MAX_TRIALS}`, trials)
  }
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
