/**
 * The example's RAG pipeline over the built-in corpus: BM25 retrieval through minisearch (or, with an
 * embedding model and `RAG_MATCHERS_RETRIEVER=dense` / `--dense`, dense retrieval by cosine over passage
 * embeddings), and answers from the committed recording (or, with `--live`, regenerated through Ollama
 * into `data/answers.live.json`).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import MiniSearch from 'minisearch'
import { cosineSimilarity, embedTexts, EmbeddingCache, MetricInputError, relevantBySubstring, type Embedder } from '../../src/index.js'

const here = dirname(fileURLToPath(import.meta.url))
const readJson = <T>(name: string): T => JSON.parse(readFileSync(join(here, 'data', name), 'utf8')) as T

/** Where `--live` writes the regenerated answers (git-ignored: they depend on the local model). */
export const LIVE_ANSWERS_FILE = join(here, 'data', 'answers.live.json')

/** Env var set by `npm run example -- --live` once the live answers are written: the suite then uses them. */
export const LIVE_ENV = 'RAG_MATCHERS_EXAMPLE_LIVE'
/** Env var selecting the retriever (`bm25`, the default, or `dense`); `--dense` sets it. */
export const RETRIEVER_ENV = 'RAG_MATCHERS_RETRIEVER'

export const BM25_LABEL = 'BM25 (minisearch)'

export interface Passage {
  readonly id: string
  readonly title: string
  readonly text: string
}

export interface EvalItem {
  readonly id: string
  readonly question: string
  readonly keyword: string
  readonly reference: string
}

export interface Retrieved {
  readonly id: string
  readonly score: number
  readonly text: string
}

/** The corpus as passages with ids `<document>-p<n>`. */
export function loadPassages(): Passage[] {
  const corpus = readJson<{ documents: Array<{ id: string; title: string; passages: string[] }> }>('corpus.json')
  return corpus.documents.flatMap((doc) => doc.passages.map((text, i) => ({ id: `${doc.id}-p${i + 1}`, title: doc.title, text })))
}

export function loadEvalSet(): EvalItem[] {
  return readJson<EvalItem[]>('eval-set.json')
}

/** The committed answers (`data/answers.json`), whatever mode the suite runs in. */
export function loadRecordedAnswers(): Record<string, string> {
  return readJson<{ answers: Record<string, string> }>('answers.json').answers
}

/**
 * The answers this run uses: `data/answers.live.json` when `RAG_MATCHERS_EXAMPLE_LIVE=1` (set by
 * `npm run example -- --live` after regenerating them), else the committed recording.
 */
export function loadAnswers(env: NodeJS.ProcessEnv = process.env, liveFile: string = LIVE_ANSWERS_FILE): { answers: Record<string, string>; source: string } {
  if (env[LIVE_ENV] !== '1') return { answers: loadRecordedAnswers(), source: 'recorded (data/answers.json)' }
  if (!existsSync(liveFile)) {
    throw new Error(`${LIVE_ENV}=1 but ${liveFile} does not exist: generate it with \`npm run example -- --live\` (needs Ollama).`)
  }
  const live = JSON.parse(readFileSync(liveFile, 'utf8')) as { model?: unknown; answers?: unknown }
  if (live.answers === null || typeof live.answers !== 'object') throw new Error(`${liveFile} has no \`answers\` object; regenerate it with \`npm run example -- --live\`.`)
  return {
    answers: live.answers as Record<string, string>,
    source: `live (${liveFile === LIVE_ANSWERS_FILE ? 'data/answers.live.json' : liveFile}, model ${typeof live.model === 'string' ? live.model : 'unknown'})`,
  }
}

/** The retriever asked for through `RAG_MATCHERS_RETRIEVER` (`dense`, case-insensitive), default BM25. */
export function requestedRetriever(env: NodeJS.ProcessEnv = process.env): 'bm25' | 'dense' {
  return env[RETRIEVER_ENV]?.trim().toLowerCase() === 'dense' ? 'dense' : 'bm25'
}

/** BM25 (minisearch's scoring) over passage titles and texts; returns ids best first. */
export function bm25Retriever(passages: readonly Passage[]): (question: string, k?: number) => Retrieved[] {
  const index = new MiniSearch<Passage>({ fields: ['title', 'text'], storeFields: ['text'] })
  index.addAll(passages)
  return (question, k = 5) =>
    index
      .search(question)
      .slice(0, k)
      .map((hit) => ({ id: String(hit.id), score: hit.score, text: String(hit.text) }))
}

export interface DenseRetrieverOptions {
  /** Shares vectors with other users of the same embedder (e.g. the semantic-similarity matchers). */
  cache?: EmbeddingCache
}

/**
 * Dense retrieval: ranks passages by the cosine similarity of their embedding with the question's.
 *
 *   score(q, p) = cos(embed(q), embed(title(p) + '. ' + text(p)))
 *
 * - The title is embedded with the text because BM25 indexes both; the comparison stays fair.
 * - Passages are embedded once, on the first call (one `embed` batch); each question is embedded when asked.
 * - Ties keep corpus order (a stable sort), so the ranking is deterministic for any embedder.
 * - A passage whose cosine is undefined (a zero vector) ranks last with score `-Infinity` instead of
 *   poisoning the sort with NaN.
 * - Returns the top `k` (default 5), best first, in the same `{ id, score, text }` shape as {@link bm25Retriever}.
 *
 * @throws MetricInputError when `passages` is not an array or `embedder` is not an embedder; embedding
 *   failures reject with the embedder's own `EmbeddingError`.
 * @example
 * const retrieve = denseRetriever(loadPassages(), ollamaEmbedder())
 * const top = await retrieve('How many layers does the encoder stack have?', 3) // [{ id: 'encoder-p1', … }, …]
 */
export function denseRetriever(passages: readonly Passage[], embedder: Embedder, options: DenseRetrieverOptions = {}): (question: string, k?: number) => Promise<Retrieved[]> {
  if (!Array.isArray(passages)) throw new MetricInputError('denseRetriever', 'passages', 'an array of { id, title, text }', passages)
  if (embedder === null || typeof embedder !== 'object' || typeof embedder.embed !== 'function' || typeof embedder.id !== 'string') {
    throw new MetricInputError('denseRetriever', 'embedder', 'an embedder { id, embed(texts) }', embedder)
  }
  const cache = options.cache ?? new EmbeddingCache()
  let passageVectors: Promise<Float32Array[]> | undefined
  const vectors = (): Promise<Float32Array[]> => {
    if (passageVectors === undefined) {
      const attempt = embedTexts(
        embedder,
        passages.map((p) => `${p.title}. ${p.text}`),
        { cache },
      )
      passageVectors = attempt
      // A failed attempt is not remembered, so a later call can retry (a model that was still loading).
      attempt.catch(() => {
        if (passageVectors === attempt) passageVectors = undefined
      })
    }
    return passageVectors
  }
  return async (question, k = 5) => {
    if (typeof question !== 'string') throw new MetricInputError('denseRetriever', 'question', 'a string', question)
    if (!Number.isInteger(k) || k <= 0) throw new MetricInputError('denseRetriever', 'k', 'a positive integer', k)
    const [all, [q]] = await Promise.all([vectors(), embedTexts(embedder, [question], { cache })])
    const scored = passages.map((p, i) => {
      const cos = cosineSimilarity(q as Float32Array, all[i] as Float32Array)
      return { id: p.id, score: Number.isNaN(cos) ? Number.NEGATIVE_INFINITY : cos, text: p.text }
    })
    // Array.prototype.sort is stable, so equal scores keep corpus order.
    return scored.sort((a, b) => b.score - a.score).slice(0, k)
  }
}

export interface ExampleCase {
  readonly id: string
  readonly question: string
  readonly keyword: string
  readonly reference: string
  readonly retrieved: Retrieved[]
  readonly relevant: Set<string | number>
  readonly contexts: string[]
  readonly answer: string
}

function buildCase(item: EvalItem, passages: readonly Passage[], retrieved: Retrieved[], answers: Record<string, string>, source: string): ExampleCase {
  const answer = answers[item.id]
  if (answer === undefined) throw new Error(`the ${source} answers have no answer for eval item "${item.id}"`)
  return {
    ...item,
    retrieved,
    relevant: relevantBySubstring(passages, item.keyword),
    contexts: retrieved.map((r) => r.text),
    answer,
  }
}

/** Runs every question once: BM25 retrieval, ground truth from the keyword, and this run's answer. */
export function runExample(options: { k?: number } = {}): ExampleCase[] {
  const passages = loadPassages()
  const retrieve = bm25Retriever(passages)
  const { answers, source } = loadAnswers()
  return loadEvalSet().map((item) => buildCase(item, passages, retrieve(item.question, options.k ?? 5), answers, source))
}

export interface RetrievalOptions {
  /** Contexts per question. @default 5 */
  k?: number
  /** Which retriever to use. @default requestedRetriever() (RAG_MATCHERS_RETRIEVER) */
  retriever?: 'bm25' | 'dense'
  /** Needed for dense retrieval; without one a dense request falls back to BM25 (and says why). */
  embedder?: Embedder
  /** Why there is no embedder, for the fallback note. */
  embedderReason?: string
  /** Shared vector cache for the dense retriever. */
  cache?: EmbeddingCache
}

export interface RetrievalRun {
  readonly passages: Passage[]
  readonly evalSet: EvalItem[]
  /** `results[i]` = the passages retrieved for `evalSet[i]`, best first. */
  readonly results: Retrieved[][]
  /** Which retriever ran, e.g. `BM25 (minisearch)` or `dense (cosine, embedder ollama|model:nomic-embed-text)`. */
  readonly retriever: string
  readonly retrieverKind: 'bm25' | 'dense'
  /** Why the requested retriever did not run, when it did not. */
  readonly note?: string
}

/**
 * Retrieves for every question of the eval set with the dense retriever when it is requested AND an
 * embedder is given, else with BM25; `retriever` names the one that ran and `note` says why a dense
 * request fell back.
 */
export async function retrieveEvalSet(options: RetrievalOptions = {}): Promise<RetrievalRun> {
  const k = options.k ?? 5
  const passages = loadPassages()
  const evalSet = loadEvalSet()
  const wanted = options.retriever ?? requestedRetriever()
  if (wanted === 'dense' && options.embedder !== undefined) {
    const retrieve = denseRetriever(passages, options.embedder, options.cache ? { cache: options.cache } : {})
    const results = await Promise.all(evalSet.map((item) => retrieve(item.question, k)))
    return { passages, evalSet, results, retriever: `dense (cosine, embedder ${options.embedder.id})`, retrieverKind: 'dense' }
  }
  const retrieve = bm25Retriever(passages)
  const results = evalSet.map((item) => retrieve(item.question, k))
  const note = wanted === 'dense' ? `dense retrieval requested but ${options.embedderReason ?? 'no embedder was given'}; using ${BM25_LABEL}` : undefined
  return { passages, evalSet, results, retriever: BM25_LABEL, retrieverKind: 'bm25', ...(note === undefined ? {} : { note }) }
}

export interface ExampleRun extends Omit<RetrievalRun, 'passages' | 'evalSet' | 'results'> {
  readonly cases: ExampleCase[]
  /** Where the answers came from. */
  readonly answers: string
}

/**
 * The async form of {@link runExample}: the same cases, retrieved by {@link retrieveEvalSet} (dense when
 * requested and an embedder is given), with this run's answers ({@link loadAnswers}).
 */
export async function loadExample(options: RetrievalOptions & { answers?: { answers: Record<string, string>; source: string } } = {}): Promise<ExampleRun> {
  const run = await retrieveEvalSet(options)
  const answers = options.answers ?? loadAnswers()
  return {
    cases: run.evalSet.map((item, i) => buildCase(item, run.passages, run.results[i] as Retrieved[], answers.answers, answers.source)),
    retriever: run.retriever,
    retrieverKind: run.retrieverKind,
    answers: answers.source,
    ...(run.note === undefined ? {} : { note: run.note }),
  }
}
