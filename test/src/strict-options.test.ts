// Every core function that takes an options object refuses a key it does not know (a typo would otherwise
// run with the default and pass), names the function and the key, and suggests the nearest known key.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MetricInputError } from '../../src/errors.js'
import { keysOf } from '../../src/option-keys.js'

import { averagePrecision, rPrecision } from '../../src/retrieval/average-precision.js'
import { hitRateAtK } from '../../src/retrieval/hit-rate.js'
import { NDCG_OPTION_KEYS, ndcgAtK } from '../../src/retrieval/ndcg.js'
import { precisionAtK } from '../../src/retrieval/precision-at-k.js'
import { RETRIEVAL_OPTION_KEYS } from '../../src/retrieval/ranking.js'
import { recallAtK } from '../../src/retrieval/recall-at-k.js'
import { reciprocalRank } from '../../src/retrieval/reciprocal-rank.js'
import { relevantBySubstring, SUBSTRING_OPTION_KEYS } from '../../src/retrieval/relevant-by-substring.js'
import { evaluateTrec, TREC_EVAL_OPTION_KEYS, trecEval } from '../../src/retrieval/trec/evaluate.js'
import { formatTrecEval, TREC_FORMAT_OPTION_KEYS, trecEvalLines } from '../../src/retrieval/trec/format.js'
import { parseQrels } from '../../src/retrieval/trec/qrels.js'
import { parseRun, TREC_PARSE_OPTION_KEYS } from '../../src/retrieval/trec/run.js'
import { parseQrelsStream, parseRunStream } from '../../src/retrieval/trec/stream.js'

import { BLEU_FROM_STATS_OPTION_KEYS, BLEU_OPTION_KEYS, bleuFromStats, bleuStats, corpusBleu, sentenceBleu } from '../../src/generation/bleu.js'
import { CHRF_FROM_STATS_OPTION_KEYS, CHRF_OPTION_KEYS, chrfFromStats, chrfStats, corpusChrf, sentenceChrf } from '../../src/generation/chrf.js'
import { METEOR_OPTION_KEYS, meteorScore, singleMeteorScore } from '../../src/generation/meteor.js'
import { EXTRACT_NUMBERS_OPTION_KEYS, extractNumbers } from '../../src/generation/numbers/extract-numbers.js'
import { NUMERIC_CONSISTENCY_OPTION_KEYS, numericConsistency } from '../../src/generation/numeric-consistency.js'
import { ROUGE_OPTION_KEYS, rougeScore } from '../../src/generation/rouge.js'
import { PORTER_STEM_OPTION_KEYS, porterStem } from '../../src/generation/stemmers/porter.js'

import { EMBED_TEXTS_OPTION_KEYS, EMBEDDING_CACHE_OPTION_KEYS, EmbeddingCache, embedTexts } from '../../src/embeddings/cache.js'
import { FUNCTION_EMBEDDER_OPTION_KEYS, functionEmbedder } from '../../src/embeddings/function-embedder.js'
import { OLLAMA_EMBEDDER_OPTION_KEYS, ollamaEmbedder } from '../../src/embeddings/ollama-embedder.js'
import { meanSemanticSimilarity, SEMANTIC_SIMILARITY_OPTION_KEYS, semanticSimilarities, semanticSimilarity } from '../../src/embeddings/semantic-similarity.js'
import { TRANSFORMERS_EMBEDDER_OPTION_KEYS, transformersEmbedder } from '../../src/embeddings/transformers-embedder.js'

import { JUDGE_CACHE_OPTION_KEYS, judgeCache } from '../../src/judge/cache.js'
import { answerRelevance } from '../../src/judge/metrics/answer-relevance.js'
import { COMPLETENESS_OPTION_KEYS, completeness } from '../../src/judge/metrics/completeness.js'
import { contextPrecision } from '../../src/judge/metrics/context-precision.js'
import { CONTEXT_RECALL_OPTION_KEYS, contextRecall } from '../../src/judge/metrics/context-recall.js'
import { CONTEXT_UTILIZATION_OPTION_KEYS, contextUtilization } from '../../src/judge/metrics/context-utilization.js'
import { GROUNDEDNESS_OPTION_KEYS, groundedness } from '../../src/judge/metrics/groundedness.js'
import { PAIRWISE_OPTION_KEYS, pairwiseJudge } from '../../src/judge/metrics/pairwise.js'
import { RUBRIC_SCORE_OPTION_KEYS, rubricScore } from '../../src/judge/metrics/rubric-score.js'
import { JUDGE_METRIC_OPTION_KEYS } from '../../src/judge/metrics/shared.js'
import { OLLAMA_JUDGE_OPTION_KEYS, ollamaJudge } from '../../src/judge/ollama-judge.js'
import type { Judge } from '../../src/judge/types.js'

import { METRIC_ALIGNMENT_OPTION_KEYS, metricAlignment } from '../../src/agreement/alignment.js'
import { BRADLEY_TERRY_OPTION_KEYS, bradleyTerry } from '../../src/agreement/bradley-terry.js'
import { COHEN_KAPPA_OPTION_KEYS, COHEN_KAPPA_TABLE_OPTION_KEYS, cohenKappa, cohenKappaTable } from '../../src/agreement/cohen-kappa.js'
import { FLEISS_KAPPA_OPTION_KEYS, fleissKappa } from '../../src/agreement/fleiss-kappa.js'
import { KRIPPENDORFF_ALPHA_OPTION_KEYS, krippendorffAlpha } from '../../src/agreement/krippendorff-alpha.js'
import { LOAD_RATINGS_OPTION_KEYS, loadRatings, PARSE_RATINGS_OPTION_KEYS, parseRatings } from '../../src/agreement/ratings.js'
import { AGREEMENT_REPORT_OPTION_KEYS, agreementReport } from '../../src/agreement/report.js'
import { WIN_RATE_OPTION_KEYS, winRate } from '../../src/agreement/win-rate.js'

import { BASELINE_LOCK_OPTION_KEYS, updateBaselineFile, WRITE_BASELINE_ENTRY_OPTION_KEYS, writeBaselineEntry } from '../../src/eval-set/baseline-file.js'
import { LOAD_DATASET_OPTION_KEYS, loadDataset, PARSE_DATASET_OPTION_KEYS, parseDataset } from '../../src/eval-set/load-dataset.js'
import { RUN_EVAL_SET_OPTION_KEYS, runEvalSet } from '../../src/eval-set/run-eval-set.js'
import { PAIRED_TEST_OPTION_KEYS, pairedBootstrap, signFlipTest } from '../../src/eval-set/statistics.js'

// ---------------------------------------------------------------------------------------------
// fixtures

const rc = { retrieved: ['a', 'b', 'c'], relevant: ['b'] }
const cand = 'The big model scored 28.4 BLEU with 8 heads.'
const ref = 'The big model scored 28.4 BLEU with 8 attention heads.'
const qrelsText = 'q1 0 d1 1\nq1 0 d2 0\n'
const runText = 'q1 Q0 d2 1 0.9 r\nq1 Q0 d1 2 0.8 r\n'
const qrels = parseQrels(qrelsText)
const run = parseRun(runText)
const table = evaluateTrec(qrels, run, ['P.1', 'map'])
const embedder = functionEmbedder((text) => [text.length, 1], { id: 'test|model:length' })
const pairs = [{ candidate: 'a cat', reference: 'a kitten' }]
// Never asked: every option check runs before the first judge call.
const judge: Judge = {
  id: 'fake:judge',
  model: 'fake',
  temperature: 0,
  seed: 42,
  ask: () => Promise.reject(new Error('the judge must not be called')),
}

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-strict-options-'))
  writeFileSync(join(dir, 'ratings.csv'), 'item,rater,score\nq1,ann,4\nq1,bob,5\n')
  writeFileSync(join(dir, 'set.json'), '[{ "id": "q1", "question": "What is BLEU?" }]')
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** The error `call` throws or rejects with (a sync throw and a rejected promise alike). */
async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}

// [function name, call with one unknown key, the key, the suggested key (undefined: none is near)]
type Case = readonly [fn: string, call: () => unknown, key: string, suggestion: string | undefined]
const u = <T>(options: Record<string, unknown>) => options as T

const CASES: readonly Case[] = [
  // retrieval
  ['precisionAtK', () => precisionAtK(rc, 3, u({ duplicate: 'first' })), 'duplicate', 'duplicates'],
  ['recallAtK', () => recallAtK(rc, 3, u({ Duplicates: 'first' })), 'Duplicates', 'duplicates'],
  ['reciprocalRank', () => reciprocalRank(rc, u({ dups: 'first' })), 'dups', undefined],
  ['ndcgAtK', () => ndcgAtK(rc, 3, u({ gian: 'exponential' })), 'gian', 'gain'],
  ['ndcgAtK', () => ndcgAtK(rc, 3, u({ empty: 'zero' })), 'empty', undefined],
  ['averagePrecision', () => averagePrecision(rc, undefined, u({ duplicats: 'first' })), 'duplicats', 'duplicates'],
  ['rPrecision', () => rPrecision(rc, u({ duplicates: 'first', k: 3 })), 'k', undefined],
  ['hitRateAtK', () => hitRateAtK(rc, 3, u({ duplicatse: 'first' })), 'duplicatse', 'duplicates'],
  ['relevantBySubstring', () => relevantBySubstring([{ id: 'c1', text: 'x' }], 'x', u({ caseSensitve: true })), 'caseSensitve', 'caseSensitive'],
  // trec
  ['parseRun', () => parseRun(runText, u({ sorce: 'run.txt' })), 'sorce', 'source'],
  ['parseQrels', () => parseQrels(qrelsText, u({ sourc: 'qrels.txt' })), 'sourc', 'source'],
  ['parseRunStream', () => parseRunStream([runText], u({ Source: 'run.txt' })), 'Source', 'source'],
  ['parseQrelsStream', () => parseQrelsStream([qrelsText], u({ srouce: 'qrels.txt' })), 'srouce', 'source'],
  ['trecEval', () => trecEval(qrels, run, ['map'], u({ relevanceLvel: 2 })), 'relevanceLvel', 'relevanceLevel'],
  ['evaluateTrec', () => evaluateTrec(qrels, run, ['map'], u({ completeTopic: true })), 'completeTopic', 'completeTopics'],
  ['formatTrecEval', () => formatTrecEval(table, u({ perquery: true })), 'perquery', 'perQuery'],
  ['trecEvalLines', () => trecEvalLines(table, u({ sumary: false })), 'sumary', 'summary'],
  // generation
  ['sentenceBleu', () => sentenceBleu(cand, [ref], u({ smoothMethod: 'floor' })), 'smoothMethod', undefined],
  ['sentenceBleu', () => sentenceBleu(cand, [ref], u({ smoth: 'floor' })), 'smoth', 'smooth'],
  ['corpusBleu', () => corpusBleu([cand], [[ref]], u({ tokenizer: '13a' })), 'tokenizer', 'tokenize'],
  ['bleuStats', () => bleuStats(cand, ref, u({ lowerCase: true })), 'lowerCase', 'lowercase'],
  ['bleuFromStats', () => bleuFromStats([3, 4, 3, 2, 1, 0, 3, 2, 1, 0], u({ nref: 1 })), 'nref', 'nrefs'],
  ['sentenceBleu', () => sentenceBleu(cand, ref, u({ nrefs: 1 })), 'nrefs', undefined],
  ['sentenceChrf', () => sentenceChrf(cand, ref, u({ charOrdr: 6 })), 'charOrdr', 'charOrder'],
  ['corpusChrf', () => corpusChrf([cand], [[ref]], u({ wordorder: 2 })), 'wordorder', 'wordOrder'],
  ['chrfStats', () => chrfStats(cand, ref, u({ whitespace: true })), 'whitespace', undefined],
  ['chrfFromStats', () => chrfFromStats([2, 3, 2, 1, 2, 1], u({ charOrder: 2, nref: 1 })), 'nref', 'nrefs'],
  ['rougeScore', () => rougeScore(cand, ref, u({ stemer: true })), 'stemer', 'stemmer'],
  ['rougeScore', () => rougeScore(cand, ref, u({ type: ['rougeL'] })), 'type', 'types'],
  ['meteorScore', () => meteorScore(cand, ref, u({ alpah: 0.9 })), 'alpah', 'alpha'],
  ['meteorScore', () => meteorScore(cand, ref, u({ alfa: 0.9 })), 'alfa', undefined],
  ['singleMeteorScore', () => singleMeteorScore(cand, ref, u({ gama: 0.5 })), 'gama', 'gamma'],
  ['numericConsistency', () => numericConsistency(cand, ref, u({ relativeTolerence: 0.1 })), 'relativeTolerence', 'relativeTolerance'],
  ['extractNumbers', () => extractNumbers(cand, u({ word: false })), 'word', 'words'],
  ['extractNumbers', () => extractNumbers(cand, u({ rounding: true })), 'rounding', undefined],
  ['porterStem', () => porterStem('running', 'nltk', u({ lowerCase: false })), 'lowerCase', 'lowercase'],
  // embeddings
  ['transformersEmbedder', () => transformersEmbedder(u({ modle: 'Xenova/all-MiniLM-L6-v2' })), 'modle', 'model'],
  ['ollamaEmbedder', () => ollamaEmbedder(u({ hots: 'http://127.0.0.1:11434' })), 'hots', 'host'],
  ['functionEmbedder', () => functionEmbedder(() => [1], u({ concurency: 2 })), 'concurency', 'concurrency'],
  ['embedTexts', () => embedTexts(embedder, ['a'], u({ batchsize: 2 })), 'batchsize', 'batchSize'],
  ['semanticSimilarity', () => semanticSimilarity('a', 'b', embedder, u({ cach: new EmbeddingCache() })), 'cach', 'cache'],
  ['semanticSimilarities', () => semanticSimilarities(pairs, embedder, u({ batch: 2 })), 'batch', undefined],
  ['meanSemanticSimilarity', () => meanSemanticSimilarity(pairs, embedder, u({ batchSise: 2 })), 'batchSise', 'batchSize'],
  ['EmbeddingCache', () => new EmbeddingCache(u({ maxEntry: 5 })), 'maxEntry', 'maxEntries'],
  // judge
  ['ollamaJudge', () => ollamaJudge(u({ model: 'llama3.1:8b', temprature: 0 })), 'temprature', 'temperature'],
  ['judgeCache', () => judgeCache(u({ dir: join(tmpdir(), 'never-written'), mod: 'read' })), 'mod', 'mode'],
  ['groundedness', () => groundedness('a', ['c'], judge, u({ onempty: 'nan' })), 'onempty', 'onEmpty'],
  ['completeness', () => completeness('a', { reference: 'r' }, judge, u({ questoin: 'q' })), 'questoin', 'question'],
  ['contextRecall', () => contextRecall('r', ['c'], judge, u({ repeats: 2 })), 'repeats', 'repeat'],
  ['contextUtilization', () => contextUtilization('a', ['c'], judge, u({ question: 'q', onEmpty: 'nan' })), 'onEmpty', undefined],
  ['contextPrecision', () => contextPrecision('q', ['c'], 'r', judge, u({ repat: 2 })), 'repat', 'repeat'],
  ['answerRelevance', () => answerRelevance('q', 'a', judge, u({ Repeat: 2 })), 'Repeat', 'repeat'],
  ['rubricScore', () => rubricScore('a', 'Is it correct?', judge, u({ refernce: 'r' })), 'refernce', 'reference'],
  ['pairwiseJudge', () => pairwiseJudge('q', 'a', 'b', judge, u({ criterion: 'accuracy' })), 'criterion', 'criteria'],
  // agreement
  ['cohenKappa', () => cohenKappa(['a', 'b'], ['a', 'b'], u({ weight: 'linear' })), 'weight', 'weights'],
  [
    'cohenKappaTable',
    () =>
      cohenKappaTable(
        [
          [1, 0],
          [0, 1],
        ],
        u({ wts: 'linear' }),
      ),
    'wts',
    'wt',
  ],
  [
    'fleissKappa',
    () =>
      fleissKappa(
        [
          [1, 1],
          [2, 0],
        ],
        u({ methd: 'fleiss' }),
      ),
    'methd',
    'method',
  ],
  [
    'krippendorffAlpha',
    () =>
      krippendorffAlpha(
        [
          [1, 2],
          [1, 2],
        ],
        u({ level: 'nominal', valueDomian: [1, 2] }),
      ),
    'valueDomian',
    'valueDomain',
  ],
  ['winRate', () => winRate({ wins: 1, losses: 1, ties: 0 }, u({ tie: 'half' })), 'tie', 'ties'],
  ['bradleyTerry', () => bradleyTerry([{ a: 'x', b: 'y', winner: 'a' }], u({ smooting: 0.5 })), 'smooting', 'smoothing'],
  ['agreementReport', () => agreementReport([{ item: 'q', rater: 'a', score: 1 }], u({ topitems: 2 })), 'topitems', 'topItems'],
  ['metricAlignment', () => metricAlignment([1, 2], [1, 2], u({ treshold: 0.5 })), 'treshold', 'threshold'],
  ['parseRatings', () => parseRatings('item,rater,score\n', u({ format: 'csv', sorce: 'x.csv' })), 'sorce', 'source'],
  ['loadRatings', () => loadRatings(join(dir, 'ratings.csv'), u({ fromat: 'csv' })), 'fromat', 'format'],
  // eval-set
  ['parseDataset', () => parseDataset('[]', u({ formt: 'json' })), 'formt', 'format'],
  ['loadDataset', () => loadDataset(join(dir, 'set.json'), u({ source: 'x' })), 'source', undefined],
  ['runEvalSet', () => runEvalSet([{ id: 'q1', question: 'q' }], async () => ({}), u({ concurreny: 2 })), 'concurreny', 'concurrency'],
  ['pairedBootstrap', () => pairedBootstrap([0.1, -0.2], u({ resample: 99 })), 'resample', 'resamples'],
  ['signFlipTest', () => signFlipTest([0.1, -0.2], u({ sed: 1 })), 'sed', 'seed'],
  ['updateBaselineFile', () => updateBaselineFile(join(dir, 'never.json'), (c) => c ?? { version: 1, entries: {} }, u({ staleMS: 1 })), 'staleMS', 'staleMs'],
  ['updateBaselineFile', () => updateBaselineFile(join(dir, 'never.json'), (c) => c ?? { version: 1, entries: {} }, u({ merge: true })), 'merge', undefined],
  ['writeBaselineEntry', () => writeBaselineEntry(join(dir, 'never.json'), 'qa', { metrics: {} }, u({ marge: true })), 'marge', 'merge'],
]

describe('an unknown option key is a MetricInputError naming the function, the key and the nearest known key', () => {
  it.each(CASES.map(([fn, call, key, suggestion]) => ({ fn, call, key, suggestion, label: `${fn} { ${key} }` })))('$label', async ({ fn, call, key, suggestion }) => {
    const error = await errorOf(call)
    expect(error).toBeInstanceOf(MetricInputError)
    const e = error as MetricInputError
    expect(e.fn).toBe(fn)
    expect(e.argument).toBe(`options.${key}`)
    expect(e.message.startsWith(`${fn}: Expected \`options.${key}\` to be not set (unknown option '${key}'`)).toBe(true)
    if (suggestion === undefined) expect(e.message).toContain(`unknown option '${key}'; known: '`)
    else expect(e.message).toContain(`unknown option '${key}' — did you mean '${suggestion}'?`)
  })

  it('gives the exact message of the ndcgAtK example', () => {
    expect(() => ndcgAtK(rc, 3, u({ gian: 'exponential' }))).toThrow(
      "ndcgAtK: Expected `options.gian` to be not set (unknown option 'gian' — did you mean 'gain'?), got `\"exponential\"` (string)",
    )
  })

  it("lists BLEU's real option names when the typo is too far for a suggestion (smoothMethod → smooth)", () => {
    expect(() => sentenceBleu(cand, [ref], u({ smoothMethod: 'floor' }))).toThrow(
      "sentenceBleu: Expected `options.smoothMethod` to be not set (unknown option 'smoothMethod'; known: 'tokenize', 'smooth', 'smoothValue', 'lowercase', 'effectiveOrder', 'maxNgramOrder', 'maxTokens')",
    )
  })

  it('covers every exported key list (one case per list at least)', () => {
    const fns = new Set(CASES.map(([fn]) => fn))
    for (const fn of [
      'precisionAtK',
      'ndcgAtK',
      'relevantBySubstring',
      'parseRun',
      'trecEval',
      'formatTrecEval',
      'sentenceBleu',
      'bleuFromStats',
      'sentenceChrf',
      'chrfFromStats',
      'rougeScore',
      'meteorScore',
      'numericConsistency',
      'extractNumbers',
      'porterStem',
      'transformersEmbedder',
      'ollamaEmbedder',
      'functionEmbedder',
      'embedTexts',
      'semanticSimilarity',
      'EmbeddingCache',
      'ollamaJudge',
      'judgeCache',
      'groundedness',
      'completeness',
      'contextRecall',
      'contextUtilization',
      'contextPrecision',
      'answerRelevance',
      'rubricScore',
      'pairwiseJudge',
      'cohenKappa',
      'cohenKappaTable',
      'fleissKappa',
      'krippendorffAlpha',
      'winRate',
      'bradleyTerry',
      'agreementReport',
      'metricAlignment',
      'parseRatings',
      'loadRatings',
      'parseDataset',
      'loadDataset',
      'runEvalSet',
      'pairedBootstrap',
      'signFlipTest',
      'updateBaselineFile',
      'writeBaselineEntry',
    ]) {
      expect(fns.has(fn), fn).toBe(true)
    }
  })
})

describe('options that are not objects', () => {
  it('are refused where only objects make sense', async () => {
    expect(() => ndcgAtK(rc, 3, 'exponential' as never)).toThrow('ndcgAtK: Expected `options` to be an object, got `"exponential"` (string)')
    expect(() => parseRun(runText, [] as never)).toThrow('parseRun: Expected `options` to be an object')
    expect(() => formatTrecEval(table, 1 as never)).toThrow('formatTrecEval: Expected `options` to be an object')
    await expect(parseRunStream([runText], null as never)).rejects.toThrow('parseRunStream: Expected `options` to be an object')
    expect(() => pairedBootstrap([0.1], 'fast' as never)).toThrow(MetricInputError)
  })

  it('keep the messages of the checks that existed before', () => {
    expect(() => sentenceBleu(cand, ref, 'floor' as never)).toThrow('sentenceBleu: Expected `options` to be an options object')
    expect(() => rougeScore(cand, ref, null as never)).toThrow('rougeScore: Expected `options` to be an object')
    expect(() => ollamaJudge(undefined as never)).toThrow('ollamaJudge: Expected `options` to be an object with `model`')
    expect(() =>
      krippendorffAlpha(
        [
          [1, 2],
          [1, 2],
        ],
        undefined as never,
      ),
    ).toThrow('krippendorffAlpha: Expected `options.level` to be')
    expect(() => parseRatings('', undefined as never)).toThrow('parseRatings: Expected `options.format` to be')
  })
})

describe('valid options and left-out options still work', () => {
  it('retrieval', () => {
    expect(ndcgAtK(rc, 3, { gain: 'exponential', duplicates: 'error' }).value).toBeCloseTo(0.6309297535714575, 15)
    expect(ndcgAtK(rc, 3, undefined).value).toBeCloseTo(0.6309297535714575, 15)
    expect(precisionAtK(rc, 3, { duplicates: 'literal' }).value).toBeCloseTo(1 / 3, 15)
    expect(averagePrecision(rc).value).toBe(0.5)
    expect(averagePrecision(rc, 2, { duplicates: 'first' }).value).toBe(0.5)
    expect(reciprocalRank(rc, undefined).value).toBe(0.5)
    expect(relevantBySubstring([{ id: 'c1', text: 'X' }], 'x', { caseSensitive: true }).size).toBe(0)
  })

  it('trec', async () => {
    expect(parseRun(runText, { source: 'run.txt' }).runId).toBe('r')
    expect((await parseQrelsStream([qrelsText], { source: 'qrels.txt' })).topics.size).toBe(1)
    expect(trecEval(qrels, run, ['P.1'], { relevanceLevel: 1, judgedOnly: true }).mean['P_1']).toBe(0)
    const perQuery = [...trecEvalLines(table, { perQuery: true, summary: false })]
    expect(perQuery).toHaveLength(2)
    expect(formatTrecEval(table, { perQuery: true, summary: false })).toBe(perQuery.map((l) => `${l}\n`).join(''))
    expect([...trecEvalLines(table)].length).toBe(2)
  })

  it('generation', () => {
    expect(sentenceBleu(cand, [ref], { smooth: 'floor', smoothValue: 0.1, tokenize: '13a', lowercase: true }).value).toBeGreaterThan(0)
    expect(sentenceBleu(cand, [ref], undefined).value).toBe(sentenceBleu(cand, [ref]).value)
    expect(bleuFromStats([3, 4, 3, 2, 1, 0, 3, 2, 1, 0], { nrefs: 1, smooth: 'none' }).signature).toContain('nrefs:1')
    expect(chrfFromStats([2, 3, 2, 1, 2, 1], { charOrder: 2, nrefs: 1 }).value).toBeCloseTo(63.636363636363626, 10)
    expect(rougeScore(cand, ref, { types: ['rougeL'], stemmer: true }).rougeL?.value).toBeGreaterThan(0)
    expect(meteorScore(cand, ref, { alpha: 0.9, beta: 3, gamma: 0.5, synonyms: false, stemmer: true }).value).toBeGreaterThan(0)
    expect(numericConsistency(cand, ref, { words: true, ignore: ['years'], relativeTolerance: 0, rounding: false, units: true }).value).toBe(1)
    expect(extractNumbers(cand, { words: false }).map((m) => m.canonical)).toEqual(['28.4', '8'])
    expect(porterStem('running', 'nltk', { lowercase: true })).toBe('run')
    expect(porterStem('running', 'nltk', undefined)).toBe('run')
  })

  it('embeddings', async () => {
    const cache = new EmbeddingCache({ maxEntries: 10 })
    expect((await semanticSimilarity('ab', 'ab', embedder, { cache, batchSize: 1 })).value).toBeCloseTo(1, 12)
    expect((await meanSemanticSimilarity([{ candidate: 'ab', reference: 'abc' }], embedder, { cache })).details.n).toBe(1)
    expect(cache.stats.hits).toBeGreaterThan(0)
    expect(ollamaEmbedder({ model: 'nomic-embed-text', dimensions: 64 }).id).toBe('ollama|model:nomic-embed-text|dims:64')
    expect(transformersEmbedder({ model: 'm', dtype: 'q8' }).model).toBe('m')
    expect(judgeCache({ dir: join(dir, 'judge'), mode: 'replay', onWarning: () => undefined }).mode).toBe('replay')
    expect(ollamaJudge({ model: 'llama3.1:8b', temperature: 0, seed: 1, retries: 0 }).seed).toBe(1)
  })

  it('agreement (including the internal cohenKappa/fleissKappa/krippendorffAlpha calls of agreementReport)', async () => {
    expect(cohenKappa(['a', 'b', 'a'], ['a', 'b', 'b'], { weights: 'linear', labels: ['a', 'b'] }).value).toBeCloseTo(0.4, 12)
    const report = agreementReport(
      [
        { item: 'q1', rater: 'ann', score: 1 },
        { item: 'q1', rater: 'bob', score: 1 },
        { item: 'q2', rater: 'ann', score: 0 },
        { item: 'q2', rater: 'bob', score: 1 },
        { item: 'q3', rater: 'ann', score: 2 },
        { item: 'q3', rater: 'bob', score: 2 },
      ],
      { weights: 'linear', topItems: 1, level: 'ordinal' },
    )
    expect(report.details.dimensions[0]?.pairwiseKappa[0]?.items).toBe(3)
    expect(metricAlignment([true, false], [1, 0], { method: 'pass-fail', humanThreshold: 0.5, top: 1 }).value).toBe(1)
    expect((await loadRatings(join(dir, 'ratings.csv'))).scores).toHaveLength(2)
    expect((await loadRatings(join(dir, 'ratings.csv'), { format: 'csv' })).scores).toHaveLength(2)
  })

  it('eval-set (including writeBaselineEntry, which hands only the lock options to updateBaselineFile)', async () => {
    expect(loadDataset(join(dir, 'set.json'), { format: 'json' })[0]?.id).toBe('q1')
    expect(parseDataset('[{ "id": "q1", "question": "q" }]', { format: 'json', source: 'set.json' })).toHaveLength(1)
    expect(pairedBootstrap([0.1, -0.2], { resamples: 99, seed: 1, confidence: 0.9 }).resamples).toBe(99)
    const file = join(dir, '__rag_baselines__', 'qa.json')
    const metrics = { 'recall@3': { signature: 'R|k:3|empty:zero|dup:first|version:0.1.0', values: { q1: 1 } } }
    writeBaselineEntry(file, 'qa', { metrics }, { timeoutMs: 1000 })
    writeBaselineEntry(file, 'qa', { metrics: { mrr: { signature: 'RR|dup:first|version:0.1.0', values: { q1: 0.5 } } } }, { merge: true, staleMs: 5000, timeoutMs: 1000 })
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).entries.qa.metrics).sort()).toEqual(['mrr', 'recall@3'])
    const runResult = await runEvalSet([{ id: 'q1', question: 'q' }], async () => ({ retrieved: [] }), { concurrency: 1, progress: 'off' })
    expect(runResult.cases).toHaveLength(1)
  })
})

describe('the exported key lists', () => {
  it('are exactly the keys of each options interface, frozen', () => {
    const lists: Record<string, readonly string[]> = {
      RETRIEVAL_OPTION_KEYS,
      NDCG_OPTION_KEYS,
      SUBSTRING_OPTION_KEYS,
      TREC_PARSE_OPTION_KEYS,
      TREC_EVAL_OPTION_KEYS,
      TREC_FORMAT_OPTION_KEYS,
      BLEU_OPTION_KEYS,
      BLEU_FROM_STATS_OPTION_KEYS,
      CHRF_OPTION_KEYS,
      CHRF_FROM_STATS_OPTION_KEYS,
      ROUGE_OPTION_KEYS,
      METEOR_OPTION_KEYS,
      NUMERIC_CONSISTENCY_OPTION_KEYS,
      EXTRACT_NUMBERS_OPTION_KEYS,
      PORTER_STEM_OPTION_KEYS,
      TRANSFORMERS_EMBEDDER_OPTION_KEYS,
      OLLAMA_EMBEDDER_OPTION_KEYS,
      FUNCTION_EMBEDDER_OPTION_KEYS,
      EMBED_TEXTS_OPTION_KEYS,
      SEMANTIC_SIMILARITY_OPTION_KEYS,
      EMBEDDING_CACHE_OPTION_KEYS,
      OLLAMA_JUDGE_OPTION_KEYS,
      JUDGE_CACHE_OPTION_KEYS,
      JUDGE_METRIC_OPTION_KEYS,
      GROUNDEDNESS_OPTION_KEYS,
      COMPLETENESS_OPTION_KEYS,
      CONTEXT_RECALL_OPTION_KEYS,
      CONTEXT_UTILIZATION_OPTION_KEYS,
      RUBRIC_SCORE_OPTION_KEYS,
      PAIRWISE_OPTION_KEYS,
      COHEN_KAPPA_OPTION_KEYS,
      COHEN_KAPPA_TABLE_OPTION_KEYS,
      FLEISS_KAPPA_OPTION_KEYS,
      KRIPPENDORFF_ALPHA_OPTION_KEYS,
      WIN_RATE_OPTION_KEYS,
      BRADLEY_TERRY_OPTION_KEYS,
      AGREEMENT_REPORT_OPTION_KEYS,
      METRIC_ALIGNMENT_OPTION_KEYS,
      PARSE_RATINGS_OPTION_KEYS,
      LOAD_RATINGS_OPTION_KEYS,
      PARSE_DATASET_OPTION_KEYS,
      LOAD_DATASET_OPTION_KEYS,
      RUN_EVAL_SET_OPTION_KEYS,
      PAIRED_TEST_OPTION_KEYS,
      BASELINE_LOCK_OPTION_KEYS,
      WRITE_BASELINE_ENTRY_OPTION_KEYS,
    }
    for (const [name, keys] of Object.entries(lists)) {
      expect(Object.isFrozen(keys), name).toBe(true)
      expect(new Set(keys).size, name).toBe(keys.length)
    }
    expect(NDCG_OPTION_KEYS).toEqual(['duplicates', 'allowEmptyRelevant', 'order', 'gain'])
    expect(BLEU_FROM_STATS_OPTION_KEYS).toEqual([...BLEU_OPTION_KEYS, 'nrefs'])
    expect(GROUNDEDNESS_OPTION_KEYS).toEqual(['repeat', 'onEmpty'])
    expect(WRITE_BASELINE_ENTRY_OPTION_KEYS).toEqual(['timeoutMs', 'staleMs', 'merge'])
  })

  it('keysOf refuses, at compile time, a list missing a key or naming an unknown one', () => {
    interface Opts {
      readonly a?: number
      readonly b?: string
    }
    expect(keysOf<Opts>()('a', 'b')).toEqual(['a', 'b'])
    // @ts-expect-error 'b' is missing
    keysOf<Opts>()('a')
    // @ts-expect-error 'c' is not a key of Opts
    keysOf<Opts>()('a', 'b', 'c')
  })
})

describe('retrieval sets and run comparison refuse unknown keys too', () => {
  it('evaluateRetrieval, retrievalMetrics and compareRuns', async () => {
    const { evaluateRetrieval, retrievalMetrics } = await import('../../src/retrieval/retrieval-metrics.js')
    const { compareRuns } = await import('../../src/eval-set/compare-runs.js')
    expect(() => evaluateRetrieval([{ retrieved: ['a'], relevant: ['a'] }], { k: 1, gian: 'exponential' } as never)).toThrow(/unknown option 'gian' — did you mean 'gain'\?/)
    expect(() => retrievalMetrics(['a'], ['a'], 1, { duplicate: 'error' } as never)).toThrow(/did you mean 'duplicates'\?/)
    const run = { metrics: { mrr: { signature: 'RR', values: { q1: 1 } } } }
    expect(() => compareRuns(run, run, { tolerence: 0.1 } as never)).toThrow(/compareRuns: .*did you mean 'tolerance'\?/)
    expect(evaluateRetrieval([{ retrieved: ['a'], relevant: ['a'] }], { k: 1, gain: 'exponential' }).mean.ndcg).toBe(1)
  })
})
