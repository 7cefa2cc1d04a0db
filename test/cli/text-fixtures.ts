// Shared by the bleu/chrf/rouge/meteor CLI tests: the golden generation data (test/parity/golden-generation.ts) turned into line
// files, and an independent oracle for Python's number formatting.
import { golden, type GoldenCase } from '../parity/golden-generation.js'
import type { TempFiles } from './temp-files.js'

/** A segment with a newline cannot be one line of a file. */
const oneLine = (s: string | null) => s === null || !s.includes('\n')

/** The golden corpora a CLI can read from files: no absent (null) reference and no newline inside a segment. */
export const fileCorpora = golden.corpora.filter((c) => !c.references.flat().includes(null) && [...c.hypotheses, ...c.references.flat()].every(oneLine))

/** The golden cases without newlines, grouped into small corpora by their number of references (k files for k refs). */
export function caseCorpora(): Array<{ nrefs: number; cases: GoldenCase[] }> {
  const groups = new Map<number, GoldenCase[]>()
  for (const c of golden.cases) {
    if (![c.hypothesis, ...c.references].every(oneLine)) continue
    const list = groups.get(c.references.length) ?? []
    list.push(c)
    groups.set(c.references.length, list)
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([nrefs, cases]) => ({ nrefs, cases }))
}

/** Lines as a file: one segment per line, each ending with "\n". */
export function linesFile(lines: ReadonlyArray<string | null>): string {
  return lines.map((l) => `${l as string}\n`).join('')
}

/** Writes the hypotheses and the k reference streams of a corpus; returns [hypPath, refPaths]. */
export function writeCorpus(files: TempFiles, name: string, hypotheses: readonly string[], streams: ReadonlyArray<ReadonlyArray<string | null>>): [string, string[]] {
  const hyp = files.write(`${name}.hyp`, linesFile(hypotheses))
  const refs = streams.map((s, k) => files.write(`${name}.ref${k}`, linesFile(s)))
  return [hyp, refs]
}

/** The reference streams of a group of cases (stream k = the k-th reference of every case). */
export function streamsOf(cases: readonly GoldenCase[], nrefs: number): string[][] {
  return Array.from({ length: nrefs }, (_, k) => cases.map((c) => c.references[k] as string))
}

/**
 * Test oracle for Python's `f'{x:.{d}f}'` (x ≥ 0 finite), written independently of the CLI's formatter: the exact
 * binary value `mantissa·2^exponent` is scaled by 10^d in BigInt arithmetic and rounded half to even.
 */
export function pythonFixed(x: number, d: number): string {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const biased = Number((bits >> 52n) & 0x7ffn)
  const fraction = bits & ((1n << 52n) - 1n)
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n)
  const exponent = (biased === 0 ? 1 : biased) - 1075
  let q: bigint
  const num = mantissa * 10n ** BigInt(d)
  if (exponent >= 0) {
    q = num << BigInt(exponent)
  } else {
    const den = 1n << BigInt(-exponent)
    q = num / den
    const twice = 2n * (num % den)
    if (twice > den || (twice === den && q % 2n === 1n)) q += 1n
  }
  const digits = q.toString().padStart(d + 1, '0')
  return d === 0 ? digits : `${digits.slice(0, -d)}.${digits.slice(-d)}`
}
