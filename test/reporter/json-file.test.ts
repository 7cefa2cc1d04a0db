// The streamed report writer prints exactly what JSON.stringify(value, null, 2) prints, on generated JSON
// data with the values JSON.stringify drops (undefined, functions) mixed in.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { writeJsonFile } from '../../src/report/json-file.js'

const dir = mkdtempSync(join(tmpdir(), 'rag-json-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const written = (value: unknown): string => {
  const file = join(dir, 'out.json')
  writeJsonFile(file, value)
  return readFileSync(file, 'utf8')
}

const dropped = fc.constantFrom(undefined, () => 1)
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    dropped,
    fc.array(tie('node'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 }),
  ),
})).node

describe('writeJsonFile', () => {
  it('is byte-identical to JSON.stringify(value, null, 2) + newline (seed 20261205)', () => {
    fc.assert(
      fc.property(
        value.filter((v) => JSON.stringify(v) !== undefined),
        (v) => {
          expect(written(v)).toBe(`${JSON.stringify(v, null, 2)}\n`)
        },
      ),
      { seed: 20261205, numRuns: 300 },
    )
  })

  it('splits deep and wide values into pieces and still matches (nesting past the split depth, arrays past the flush size)', () => {
    const deep = { a: [{ b: [{ c: [{ d: [{ e: [1, { f: 'x\ny' }] }] }] }] }], empty: {}, list: [], u: undefined, n: null }
    expect(written(deep)).toBe(`${JSON.stringify(deep, null, 2)}\n`)
    const wide = { cases: Array.from({ length: 30_000 }, (_, i) => ({ id: `q${i}`, text: 'word '.repeat(20), values: [i, i / 3] })) }
    expect(written(wide)).toBe(`${JSON.stringify(wide, null, 2)}\n`)
  })
})
