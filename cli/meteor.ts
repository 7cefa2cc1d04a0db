/**
 * `rag-matchers meteor REF [REF...] [-i HYP | < HYP] [--alpha A] [--beta B] [--gamma G] [--no-synonyms]`.
 *
 * Each segment is scored with `meteorScore` (NLTK 3.8 `meteor_score` parity: `str.split()` tokens, max over the
 * references, WordNet 3.0 synonyms); the corpus value is the **mean of the segment scores** (NLTK has no corpus
 * METEOR), which the output header says. Values on 0–1, 4 decimals by default.
 */
import { meteorScore, type MeteorDetails, type MeteorOptions } from '../src/generation/meteor.js'
import { loadWordNet, setWordNetDataPath } from '../src/generation/wordnet.js'
import type { Score } from '../src/score.js'
import type { CliIo } from './io.js'
import {
  CliInputError,
  COMMON_HELP,
  numberOption,
  pyFixed,
  runTextCommand,
  segmentReferences,
  type CommonSettings,
  type OptionDef,
  type TextInputs,
  withNrefs,
} from './text-input.js'

const OPTIONS: readonly OptionDef[] = [
  { names: ['--alpha'], key: 'alpha', value: true },
  { names: ['--beta'], key: 'beta', value: true },
  { names: ['--gamma'], key: 'gamma', value: true },
  { names: ['--no-synonyms'], key: 'noSynonyms' },
  { names: ['--no-stemmer'], key: 'noStemmer' },
  { names: ['--wordnet'], key: 'wordnet', value: true },
]

const HELP = `Usage: rag-matchers meteor REF [REF...] [-i HYP] [options]      (or: ... < HYP)

METEOR as NLTK 3.8's meteor_score computes it per segment (str.split() tokens, lower-cased; exact, Porter stem and
WordNet 3.0 synonym stages; max over the references); the corpus value is the mean of the segment scores. Values on 0-1.

METEOR options (NLTK's parameters):
  --alpha A                 precision weight in the harmonic mean, 0-1 (default 0.9)
  --beta B                  fragmentation penalty exponent, >= 0 (default 3)
  --gamma G                 maximum fragmentation penalty, 0-1 (default 0.5)
  --no-synonyms             skip the WordNet synonym stage
  --no-stemmer              skip the Porter stem stage
  --wordnet FILE            the WordNet 3.0 data file (default: data/wordnet-3.0-meteor.json.gz of the package)

${COMMON_HELP}`

type MeteorScore = Score<MeteorDetails>

interface MeteorConfig {
  readonly options: MeteorOptions
  readonly wordnet: string | undefined
}

function segmentJson(score: MeteorScore, signature: string): Record<string, unknown> {
  const d = score.details
  return {
    name: score.metric,
    score: score.value,
    signature,
    best_reference: d.bestReferenceIndex,
    matches: { exact: d.matches.exact, stem: d.matches.stem, synonym: d.matches.synonym },
    chunks: d.chunks,
    precision: d.precision,
    recall: d.recall,
    fmean: d.fmean,
    penalty: d.penalty,
  }
}

/** Loads WordNet before scoring, so that a missing or bad data file is an input error with a hint, not a crash. */
function scoreAll(config: MeteorConfig, input: TextInputs): MeteorScore[] {
  const { options, wordnet } = config
  if (wordnet !== undefined) setWordNetDataPath(wordnet)
  try {
    if (options.synonyms !== false) {
      try {
        loadWordNet()
      } catch (error) {
        const message = error instanceof Error ? error.message.replace(/^rag-matchers: /, '').replace(/; pass its location to setWordNetDataPath\(\)$/, '') : String(error)
        throw new CliInputError(`cannot load the WordNet data: ${message}. Give the file with --wordnet FILE, or use --no-synonyms.`)
      }
    }
    const scores: MeteorScore[] = []
    for (let i = 0; i < input.hypotheses.length; i++) scores.push(meteorScore(input.hypotheses[i] as string, segmentReferences(input, i), options))
    return scores
  } finally {
    // --wordnet is for this run only; the next in-process caller gets the default search back
    if (wordnet !== undefined) setWordNetDataPath(undefined)
  }
}

function evaluate(config: MeteorConfig, input: TextInputs, common: CommonSettings): string {
  const n = input.hypotheses.length
  const scores = scoreAll(config, input)
  const nrefs = input.referenceStreams.length
  if (common.sentenceLevel) {
    return scores
      .map((s) => {
        const signature = withNrefs(s.signature, nrefs, false)
        if (common.json) return `${JSON.stringify(segmentJson(s, signature))}\n`
        const value = pyFixed(s.value, common.width)
        return common.scoreOnly ? `${value}\n` : `${signature} = ${value}\n`
      })
      .join('')
  }
  let sum = 0
  for (const s of scores) sum += s.value
  const mean = sum / n
  const signature = withNrefs((scores[0] as MeteorScore).signature, nrefs, true)
  const header = `mean over ${n} segment${n === 1 ? '' : 's'} of the per-segment METEOR (NLTK 3.8 meteor_score: max over the references)`
  if (common.json) {
    return `${JSON.stringify({ name: 'METEOR', score: mean, signature, aggregation: header, segments: n, nrefs }, null, 1)}\n`
  }
  const value = pyFixed(mean, common.width)
  return common.scoreOnly ? `${value}\n` : `# METEOR: ${header}\n${signature} = ${value}\n`
}

/**
 * Runs `rag-matchers meteor` (argv without the command name) and returns the exit code.
 *
 * Per segment: NLTK 3.8 `meteor_score` (α 0.9, β 3, γ 0.5, Porter stems and WordNet 3.0 synonyms; max over the
 * references). Corpus: the mean of the segment scores, on 0–1 with `-w` decimals (default 4), after a header line
 * that says so. Exit codes as `bleu`; a missing WordNet data file is an input error (2).
 *
 * Parity: every segment score equals NLTK 3.8 on the golden cases (test/cli/meteor.test.ts, 1e-9 relative).
 *
 * @example
 * // the three sentences and two reference files of the `rouge` example
 * await run(['ref1.txt', 'ref2.txt', '-i', 'hyp.txt'], { stdout: process.stdout, stderr: process.stderr })
 * // prints `# METEOR: mean over 3 segments …` then
 * // `METEOR|nrefs:2|pre:lower|stem:porter|syn:wordnet-3.0|alpha:0.9|beta:3|gamma:0.5|agg:mean|version:0.1.0 = 0.5501`
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runTextCommand<MeteorConfig>(
    {
      name: 'meteor',
      help: HELP,
      options: OPTIONS,
      defaultWidth: 4,
      configure: (args) => ({
        options: {
          alpha: numberOption(args, 'alpha', 0.9, 0, 1),
          beta: numberOption(args, 'beta', 3, 0),
          gamma: numberOption(args, 'gamma', 0.5, 0, 1),
          synonyms: !args.flags.has('noSynonyms'),
          stemmer: !args.flags.has('noStemmer'),
        },
        wordnet: args.values.get('wordnet'),
      }),
      evaluate,
    },
    argv,
    io,
  )
}
