// Documented names exist (issue #25). README.md and docs/*.md name functions in inline code written as
// calls (`porterStem(word, 'nltk' | …)`, `corpusBleu(hyps, refs, …)`); each must be a function exported
// from the entry the text says it comes from. Only inline code is read (fenced blocks are examples,
// type-checked elsewhere). The entry of a name is found by three explicit rules, first match wins:
//   1. an `import { name } from 'rag-matchers…'` anywhere in the docs (every such entry must export it);
//   2. the nearest heading above the mention that SECTION_ENTRIES knows (Retrieval → rag-matchers/retrieval, …);
//   3. the file's default in FILE_ENTRIES (the root entry 'rag-matchers' unless listed).
// Matchers (`toXxx(`) are checked by the matcher tests and docs/api.md's generator; methods (`expect.extend(`)
// are never read (the name must not follow a `.`); NOT_OURS lists the callables of other libraries and
// languages, and of the user's own code, that the docs mention.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const repo = process.cwd()

/** The entries a documented name may come from, and the source module behind each. */
const ENTRY_MODULES: Readonly<Record<string, () => Promise<Record<string, unknown>>>> = {
  'rag-matchers': () => import('../../src/index.js'),
  'rag-matchers/retrieval': () => import('../../src/retrieval/public.js'),
  'rag-matchers/generation': () => import('../../src/generation/public.js'),
  'rag-matchers/judge': () => import('../../src/judge/public.js'),
  'rag-matchers/agreement': () => import('../../src/agreement/public.js'),
  'rag-matchers/eval-set': () => import('../../src/eval-set/public.js'),
  'rag-matchers/report': () => import('../../src/report/public.js'),
  'rag-matchers/adapters': () => import('../../src/adapters/public.js'),
  'rag-matchers/history': () => import('../../src/history/public.js'),
  'rag-matchers/testset': () => import('../../src/testset/public.js'),
  'rag-matchers/matchers': () => import('../../runners/matchers.js'),
  // registers the matchers on Vitest's expect as a side effect, which is harmless here
  'rag-matchers/vitest': () => import('../../runners/vitest.js'),
}

/** Rule 2: heading text → entry. Checked from the nearest heading outwards; more specific patterns first. */
const SECTION_ENTRIES: ReadonlyArray<readonly [heading: RegExp, entry: string]> = [
  [/LangChain|LlamaIndex/, 'rag-matchers/adapters'],
  [/^Retrieval\b/, 'rag-matchers/retrieval'],
  [/^Answers\b/, 'rag-matchers/generation'],
  [/^Semantic similarity\b/, 'rag-matchers/generation'],
  [/^LLM-judged\b/, 'rag-matchers/judge'],
  [/^Eval sets\b/, 'rag-matchers/eval-set'],
  [/^Human evaluation and agreement\b/, 'rag-matchers/agreement'],
  [/^Reports\b/, 'rag-matchers/report'],
  [/^Command line: `rag-matchers trec`/, 'rag-matchers/retrieval'],
  [/^Command line: `rag-matchers bleu`/, 'rag-matchers/generation'],
]

/** Rule 3: a file's default entry (files not listed default to the root entry). */
const FILE_ENTRIES: Readonly<Record<string, string>> = {
  // "The record schema, report model, renderers and merge live in src/report/ (… 'rag-matchers/report')"
  'docs/reporter.md': 'rag-matchers/report',
  'docs/baselines.md': 'rag-matchers/eval-set',
  // "generateEvalSet … (rag-matchers/testset)": the generator's page names its own entry's functions
  'docs/testset.md': 'rag-matchers/testset',
}
const ROOT = 'rag-matchers'

/** Callables the docs mention that are not rag-matchers exports. Add a name here only with its reason. */
const NOT_OURS: ReadonlyMap<string, string> = new Map([
  ['expect', 'Vitest / Jest'],
  ['describe', 'Vitest / Jest'],
  ['it', 'Vitest / Jest'],
  ['test', 'Vitest / Jest'],
  ['generateText', 'the Vercel AI SDK'],
  ['stepCountIs', 'the Vercel AI SDK (a stop condition of generateText), in docs/agents.md'],
  ['RougeScorer', "Python rouge-score's class, in docs/cli.md"],
  ['TER', "Python sacrebleu's class (`TER().corpus_score`), in docs/cli.md"],
  ['rstrip', "Python's str method (`rstrip()`ped lines), in docs/cli.md"],
  ['pipeline', "the user's own pipeline function that runEvalSet calls (`pipeline(question, item)`)"],
  ['embed', "the method of the user's own Embedder object (`{ id, embed(texts) }`)"],
])

/** JavaScript built-ins, never rag-matchers names. */
const JS_BUILTINS: ReadonlySet<string> = new Set([
  'Array',
  'BigInt',
  'Boolean',
  'Date',
  'Error',
  'JSON',
  'Map',
  'Math',
  'Number',
  'Object',
  'Promise',
  'RegExp',
  'Set',
  'String',
  'Symbol',
  'console',
  'fetch',
  'import',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
  'require',
  'setTimeout',
  'structuredClone',
])

/**
 * Documented callables that exist nowhere in src/: the docs must be fixed (not this test, not the code).
 * The test asserts that the misses are exactly this set, so a new miss fails, and so does a fixed one
 * left listed here.
 */
const KNOWN_MISSING: ReadonlySet<string> = new Set<string>([])

const DOC_FILES = ['README.md', ...readdirSync(join(repo, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`)]

/** An identifier immediately followed by `(`, not after a `.` (a method) or inside another identifier. */
const CALL = /(?<![\w$.])([A-Za-z_$][\w$]*)\(/g
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"](rag-matchers(?:\/[\w-]+)?)['"]/g
const FENCE = /^\s*(```|~~~)/
const HEADING = /^(#{1,6})\s+(.*?)\s*$/

interface Mention {
  readonly name: string
  readonly file: string
  readonly line: number
  readonly entries: readonly string[]
  readonly rule: 'import' | 'section' | 'file'
}

/** Rule 1: name → entries, from every import statement in the docs (fenced blocks included). */
function importedEntries(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const file of DOC_FILES) {
    for (const m of readFileSync(join(repo, file), 'utf8').matchAll(IMPORT)) {
      for (const spec of m[1]!.split(',')) {
        const name = spec
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim()
        if (name === '' || /^type\s/.test(spec.trim())) continue
        out.set(name, (out.get(name) ?? new Set()).add(m[2]!))
      }
    }
  }
  return out
}

function documentedMentions(): Mention[] {
  const imports = importedEntries()
  const mentions: Mention[] = []
  for (const file of DOC_FILES) {
    const headings: string[] = []
    let inFence = false
    readFileSync(join(repo, file), 'utf8')
      .split('\n')
      .forEach((text, index) => {
        if (FENCE.test(text)) inFence = !inFence
        if (inFence || FENCE.test(text)) return
        const heading = HEADING.exec(text)
        if (heading) {
          headings.length = heading[1]!.length - 1
          headings.push(heading[2]!)
          return
        }
        for (const code of text.matchAll(/`([^`]+)`/g)) {
          for (const call of code[1]!.matchAll(CALL)) {
            const name = call[1]!
            if (/^to[A-Z]/.test(name) || NOT_OURS.has(name) || JS_BUILTINS.has(name)) continue
            const line = index + 1
            const imported = imports.get(name)
            if (imported) {
              mentions.push({ name, file, line, entries: [...imported].sort(), rule: 'import' })
              continue
            }
            const section = headings
              .filter((h) => h !== undefined)
              .reverse()
              .map((h) => SECTION_ENTRIES.find(([pattern]) => pattern.test(h))?.[1])
              .find((entry) => entry !== undefined)
            if (section) mentions.push({ name, file, line, entries: [section], rule: 'section' })
            else mentions.push({ name, file, line, entries: [FILE_ENTRIES[file] ?? ROOT], rule: 'file' })
          }
        }
      })
  }
  return mentions
}

const mentions = documentedMentions()

async function missesOf(list: readonly Mention[]): Promise<string[]> {
  const misses: string[] = []
  for (const m of list) {
    for (const entry of m.entries) {
      const load = ENTRY_MODULES[entry]
      if (load === undefined) {
        misses.push(`${m.name}: ${m.file}:${m.line} implies ${entry}, which this test cannot load (add it to ENTRY_MODULES)`)
        continue
      }
      const exports = await load()
      if (typeof exports[m.name] !== 'function') misses.push(`${m.name}: ${m.file}:${m.line} implies ${entry} (by ${m.rule}), which exports no such function`)
    }
  }
  return misses
}

describe('documented names exist', () => {
  it('finds the documented calls', () => {
    const names = new Set(mentions.map((m) => m.name))
    // a floor, so a broken scan cannot pass by finding nothing
    expect(names.size).toBeGreaterThanOrEqual(15)
    for (const name of ['porterStem', 'corpusBleu', 'trecEval', 'runEvalSet', 'mergeReports']) expect(names).toContain(name)
  })

  it('maps names to entries by import, then section, then file', () => {
    const at = (name: string, file: string) => mentions.find((m) => m.name === name && m.file === file)
    expect(at('porterStem', 'README.md')).toMatchObject({ entries: ['rag-matchers/generation'], rule: 'section' })
    expect(at('trecEval', 'docs/cli.md')).toMatchObject({ entries: ['rag-matchers/retrieval'], rule: 'section' })
    expect(at('mergeReports', 'docs/reporter.md')).toMatchObject({ entries: ['rag-matchers/report'], rule: 'file' })
    expect(at('describeEvalSet', 'docs/reporter.md')).toMatchObject({ entries: ['rag-matchers/vitest'], rule: 'import' })
  })

  it('every documented call is a function exported from the entry the docs imply, except exactly KNOWN_MISSING', async () => {
    const ours = mentions.filter((m) => !KNOWN_MISSING.has(m.name))
    expect(await missesOf(ours)).toEqual([])
    // every KNOWN_MISSING name is still documented and still missing: remove it here once the docs are fixed
    for (const name of KNOWN_MISSING) {
      const documented = mentions.filter((m) => m.name === name)
      expect({ name, documented: documented.length > 0 }).toEqual({ name, documented: true })
      expect({ name, missing: (await missesOf(documented)).length }).toEqual({ name, missing: documented.length * documented[0]!.entries.length })
    }
  })

  it('the allow-lists name nothing rag-matchers exports from the root or a family entry', async () => {
    for (const entry of Object.keys(ENTRY_MODULES)) {
      if (entry === 'rag-matchers/vitest' || entry === 'rag-matchers/matchers') continue
      const exports = await ENTRY_MODULES[entry]!()
      const shadowed = [...NOT_OURS.keys(), ...JS_BUILTINS].filter((name) => name in exports)
      expect({ entry, shadowed }).toEqual({ entry, shadowed: [] })
    }
  })
})
