/**
 * The example's RAG pipeline over the built-in corpus: BM25 retrieval through minisearch, and
 * answers from the committed recording (or, with `--live`, regenerated through Ollama).
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import MiniSearch from 'minisearch'
import { relevantBySubstring } from '../../src/index.js'

const here = dirname(fileURLToPath(import.meta.url))
const readJson = <T>(name: string): T => JSON.parse(readFileSync(join(here, 'data', name), 'utf8')) as T

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

/** The corpus as passages with ids `<document>-p<n>`. */
export function loadPassages(): Passage[] {
  const corpus = readJson<{ documents: Array<{ id: string; title: string; passages: string[] }> }>('corpus.json')
  return corpus.documents.flatMap((doc) => doc.passages.map((text, i) => ({ id: `${doc.id}-p${i + 1}`, title: doc.title, text })))
}

export function loadEvalSet(): EvalItem[] {
  return readJson<EvalItem[]>('eval-set.json')
}

export function loadRecordedAnswers(): Record<string, string> {
  return readJson<{ answers: Record<string, string> }>('answers.json').answers
}

/** BM25 (minisearch's scoring) over passage titles and texts; returns ids best first. */
export function bm25Retriever(passages: readonly Passage[]): (question: string, k?: number) => Array<{ id: string; score: number; text: string }> {
  const index = new MiniSearch<Passage>({ fields: ['title', 'text'], storeFields: ['text'] })
  index.addAll(passages)
  return (question, k = 5) =>
    index
      .search(question)
      .slice(0, k)
      .map((hit) => ({ id: String(hit.id), score: hit.score, text: String(hit.text) }))
}

export interface ExampleCase {
  readonly id: string
  readonly question: string
  readonly keyword: string
  readonly reference: string
  readonly retrieved: Array<{ id: string; score: number; text: string }>
  readonly relevant: Set<string | number>
  readonly contexts: string[]
  readonly answer: string
}

/** Runs every question once: retrieval, ground truth from the keyword, and the recorded answer. */
export function runExample(options: { k?: number } = {}): ExampleCase[] {
  const passages = loadPassages()
  const retrieve = bm25Retriever(passages)
  const answers = loadRecordedAnswers()
  return loadEvalSet().map((item) => {
    const retrieved = retrieve(item.question, options.k ?? 5)
    const answer = answers[item.id]
    if (answer === undefined) throw new Error(`answers.json has no answer for eval item "${item.id}"`)
    return {
      ...item,
      retrieved,
      relevant: relevantBySubstring(passages, item.keyword),
      contexts: retrieved.map((r) => r.text),
      answer,
    }
  })
}
