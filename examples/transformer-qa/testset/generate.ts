/**
 * `npm run example -- --generate`: an eval set generated from the built-in corpus by
 * `rag-matchers testset generate`, replayed from the committed cache (`__rag_judge_cache__/` here, recorded
 * once from the scripted fake model in fake-writer.ts, see README.md), so it needs no model and writes
 * the same bytes every time. The suite's generated.test.ts runs the retrieval checks on it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { main } from '../../../cli/main.js'
import type { CliIo } from '../../../cli/io.js'
import { loadPassages } from '../pipeline.js'

const here = dirname(fileURLToPath(import.meta.url))

/** The generated set (JSON Lines) and, beside it, its summary with every rejected question. */
export const GENERATED_SET = join(here, '..', 'data', 'generated.jsonl')
export const RECORDED_CACHE = join(here, '__rag_judge_cache__')
/** The model name the replies were recorded under (part of every cache key). */
export const WRITER_MODEL = 'scripted-writer'
/** What the example asks for: 20 questions of four kinds from the 32 passages. */
export const EXAMPLE_ARGS = ['-n', '20', '--kinds', 'factual=10,numeric=5,multi-chunk=1,unanswerable=4'] as const

export interface GenerateOptions {
  readonly out?: string
  readonly seed?: number
  readonly cache?: string
  /** `replay` (the default: no model) or `readwrite` (record.ts, against the fake writer). */
  readonly cacheMode?: 'replay' | 'readwrite'
  /** The Ollama server; nothing listens on port 9, so a replay that asked for a reply would fail. */
  readonly host?: string
  readonly io?: CliIo
}

/**
 * Runs `rag-matchers testset generate --chunks <the corpus as { id, text }> …` as a user would, and
 * returns its exit code. The chunks are the passages with the ids the example's retrievers return.
 */
export async function generateExampleSet(options: GenerateOptions = {}): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-example-testset-'))
  try {
    const chunks = join(dir, 'chunks.jsonl')
    await writeFile(
      chunks,
      loadPassages()
        .map((p) => JSON.stringify({ id: p.id, text: p.text }))
        .join('\n') + '\n',
    )
    const argv = [
      'testset',
      'generate',
      '--chunks',
      chunks,
      '--out',
      options.out ?? GENERATED_SET,
      '--judge',
      `ollama:${WRITER_MODEL}`,
      '--host',
      options.host ?? 'http://127.0.0.1:9',
      '--cache',
      options.cache ?? RECORDED_CACHE,
      '--cache-mode',
      options.cacheMode ?? 'replay',
      '--seed',
      String(options.seed ?? 1),
      ...EXAMPLE_ARGS,
    ]
    return await main(argv, options.io ?? { stdout: process.stdout, stderr: process.stderr })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
