import { fork } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  BaselineFileError,
  baselinePathFor,
  readBaselineFile,
  serializeBaselineFile,
  updateBaselineFile,
  writeBaselineEntry,
  type BaselineFile,
} from '../../../src/eval-set/baseline-file.js'
import { acquireLock } from '../../../src/eval-set/baseline-lock.js'
import { bundleBaselineFile } from './bundle-baseline-file.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-baselines-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const SIG = 'R|k:3|empty:zero|dup:first|version:0.1.0'

describe('baselinePathFor', () => {
  it('puts the file in __rag_baselines__ next to the test file, or in a given folder', () => {
    expect(baselinePathFor('/repo/test/qa.test.ts')).toBe('/repo/test/__rag_baselines__/qa.test.ts.json')
    expect(baselinePathFor('/repo/test/qa.test.ts', '/elsewhere')).toBe('/elsewhere/qa.test.ts.json')
    expect(() => baselinePathFor('')).toThrow('baselinePathFor: Expected `testFile` to be a non-empty file path')
  })
})

describe('serializeBaselineFile', () => {
  it('sorts entries, metrics and case ids (integer-like ids too), one case per line', () => {
    const data: BaselineFile = {
      version: 2,
      entries: {
        zeta: { metrics: { mrr: { measure: 'MRR', signature: 'RR|dup:first|rev:1', values: { b: 0.5, a: 1 } } } },
        alpha: {
          metrics: {
            'recall@3': { signature: SIG, values: { '10': 1, '2': 0.1 + 0.2, x: 0 } },
            bleu: { signature: 'BLEU|nrefs:1', values: {} },
          },
        },
      },
    }
    expect(serializeBaselineFile(data)).toBe(
      [
        '{',
        '  "version": 2,',
        '  "entries": {',
        '    "alpha": {',
        '      "metrics": {',
        '        "bleu": {',
        '          "signature": "BLEU|nrefs:1",',
        '          "values": {}',
        '        },',
        '        "recall@3": {',
        `          "signature": "${SIG}",`,
        '          "values": {',
        '            "10": 1,',
        '            "2": 0.30000000000000004,',
        '            "x": 0',
        '          }',
        '        }',
        '      }',
        '    },',
        '    "zeta": {',
        '      "metrics": {',
        '        "mrr": {',
        '          "measure": "MRR",',
        '          "signature": "RR|dup:first|rev:1",',
        '          "values": {',
        '            "a": 1,',
        '            "b": 0.5',
        '          }',
        '        }',
        '      }',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    )
  })

  it('round-trips values exactly and refuses non-finite ones', () => {
    const values = { a: 1 / 3, b: 76.24658586234858, c: 1e-17 }
    const text = serializeBaselineFile({ version: 1, entries: { e: { metrics: { m: { signature: 's', values } } } } })
    expect(JSON.parse(text).entries.e.metrics.m.values).toEqual(values)
    expect(() => serializeBaselineFile({ version: 1, entries: { e: { metrics: { m: { signature: 's', values: { a: Number.NaN } } } } } })).toThrow(
      'Expected `entries.e.metrics.m.values.a` to be a finite number',
    )
  })
})

describe('readBaselineFile / writeBaselineEntry', () => {
  it('returns undefined for a missing file, writes and merges entries and metrics', () => {
    const file = join(dir, '__rag_baselines__', 'qa.test.ts.json')
    expect(readBaselineFile(file)).toBeUndefined()
    writeBaselineEntry(file, 'one', { metrics: { mrr: { signature: 'RR', values: { a: 1 } } } })
    writeBaselineEntry(file, 'two', { metrics: { mrr: { signature: 'RR', values: { a: 0.5 } } } })
    writeBaselineEntry(file, 'one', { metrics: { bleu: { signature: 'BLEU', values: { a: 12 } } } }, { merge: true })
    const read = readBaselineFile(file)!
    expect(Object.keys(read.entries)).toEqual(['one', 'two'])
    expect(Object.keys(read.entries.one!.metrics).sort()).toEqual(['bleu', 'mrr'])
    // without merge, the entry is replaced as a whole (other entries stay)
    writeBaselineEntry(file, 'one', { metrics: { bleu: { signature: 'BLEU', values: { a: 13 } } } })
    expect(Object.keys(readBaselineFile(file)!.entries.one!.metrics)).toEqual(['bleu'])
    expect(readBaselineFile(file)!.entries.two!.metrics.mrr!.values.a).toBe(0.5)
    // no temp or lock files are left behind
    expect(readdirSync(join(dir, '__rag_baselines__'))).toEqual(['qa.test.ts.json'])
  })

  it('treats __proto__ as an ordinary case id', () => {
    const file = join(dir, 'p.json')
    writeBaselineEntry(file, '__proto__', { metrics: { mrr: { signature: 'RR', values: JSON.parse('{"__proto__": 0.25, "a": 1}') } } })
    const read = readBaselineFile(file)!
    expect(Object.keys(read.entries)).toEqual(['__proto__'])
    expect(Object.keys(read.entries['__proto__']!.metrics.mrr!.values)).toEqual(['__proto__', 'a'])
    expect(read.entries['__proto__']!.metrics.mrr!.values['__proto__']).toBe(0.25)
  })

  it('does not rewrite a file whose text would not change', () => {
    const file = join(dir, 'same.json')
    const entry = { metrics: { mrr: { signature: 'RR', values: { a: 1 } } } }
    writeBaselineEntry(file, 'e', entry)
    utimesSync(file, new Date(1_000_000), new Date(1_000_000))
    writeBaselineEntry(file, 'e', entry)
    expect(statSync(file).mtimeMs).toBe(1_000_000)
    writeBaselineEntry(file, 'e', { metrics: { mrr: { signature: 'RR', values: { a: 0.5 } } } })
    expect(statSync(file).mtimeMs).not.toBe(1_000_000)
    expect(readdirSync(dir)).toEqual(['same.json'])
  })

  it('names the file and the place of a broken baseline', () => {
    const file = join(dir, 'bad.json')
    writeFileSync(file, '{"version": 1, "entries": {"e": {"metrics": {"mrr": {"signature": "RR", "values": {"a": "high"}}}}}}')
    expect(() => readBaselineFile(file)).toThrow(BaselineFileError)
    expect(() => readBaselineFile(file)).toThrow(`${file} at ["entries"]["e"]["metrics"]["mrr"]["values"]["a"]: expected a finite number, got "high"`)
    writeFileSync(file, '{"version": 3, "entries": {}}')
    expect(() => readBaselineFile(file)).toThrow('at ["version"]: expected version 1 or 2, got 3 (written by a newer rag-matchers version?)')
    writeFileSync(file, '{"version": 2, "entries": {"e": {"metrics": {"mrr": {"measure": 7, "signature": "RR", "values": {}}}}}}')
    expect(() => readBaselineFile(file)).toThrow('at ["entries"]["e"]["metrics"]["mrr"]["measure"]: expected a string')
    writeFileSync(file, '{"version": 1,')
    expect(() => readBaselineFile(file)).toThrow(`${file}: not valid JSON`)
    expect(() => writeBaselineEntry(file, 'e', { metrics: {} })).toThrow(`${file}: not valid JSON`)
  })

  it('removes a stale lock left by a crashed writer, and times out on a fresh one', () => {
    const file = join(dir, 'locked.json')
    writeFileSync(`${file}.lock`, '12345 crashed\n')
    const old = new Date(Date.now() - 60_000)
    utimesSync(`${file}.lock`, old, old)
    writeBaselineEntry(file, 'e', { metrics: { mrr: { signature: 'RR', values: { a: 1 } } } })
    expect(existsSync(`${file}.lock`)).toBe(false)
    writeFileSync(`${file}.lock`, '12345 busy\n')
    expect(() => updateBaselineFile(file, (f) => f!, { timeoutMs: 60 })).toThrow(`Timed out after 60 ms waiting for the baseline lock ${file}.lock`)
    rmSync(`${file}.lock`)
  })
})

describe('the owned lock', () => {
  it("never removes a lock that holds another writer's token, and takes over a stale one by rename", () => {
    const lockFile = join(dir, 'x.json.lock')
    const lock = acquireLock(lockFile)
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(lock.token)
    // another writer took the lock over (ours looked stale to it): releasing ours must leave theirs
    writeFileSync(lockFile, 'someone-else 1\n')
    lock.release()
    expect(readFileSync(lockFile, 'utf8')).toBe('someone-else 1\n')
    // a fresh foreign lock makes us wait, then time out
    expect(() => acquireLock(lockFile, { timeoutMs: 40 })).toThrow(`Timed out after 40 ms waiting for the baseline lock ${lockFile}`)
    // once it is stale it is taken over, and the break lock is gone afterwards
    const old = new Date(Date.now() - 60_000)
    utimesSync(lockFile, old, old)
    const mine = acquireLock(lockFile, { timeoutMs: 1000 })
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(mine.token)
    mine.release()
    expect(readdirSync(dir)).toEqual([])
  })

  it('takes over a stale break lock left by a breaker that crashed', () => {
    const lockFile = join(dir, 'y.json.lock')
    const old = new Date(Date.now() - 60_000)
    for (const f of [lockFile, `${lockFile}.break`]) {
      writeFileSync(f, 'crashed 1\n')
      utimesSync(f, old, old)
    }
    const lock = acquireLock(lockFile, { timeoutMs: 2000 })
    lock.release()
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('metrics stored without a signature (issue #26 item 5)', () => {
  it('are read as unsigned, written back without a signature, and refused only when the signature is not a string', () => {
    const file = join(dir, 'unsigned.json')
    writeFileSync(file, '{"version": 2, "entries": {"e": {"metrics": {"mrr": {"values": {"a": 1}}}}}}')
    expect(readBaselineFile(file)!.entries.e!.metrics.mrr).toEqual({ signature: '', unsigned: true, values: { a: 1 } })
    // another entry written into the file keeps this one as it was: no empty signature appears
    writeBaselineEntry(file, 'other', { metrics: { mrr: { signature: 'RR|dup:first|rev:1', values: { a: 1 } } } })
    expect(readFileSync(file, 'utf8')).toContain('"mrr": {\n          "values": {\n            "a": 1\n          }')
    expect(readBaselineFile(file)!.entries.e!.metrics.mrr!.unsigned).toBe(true)
    writeFileSync(file, '{"version": 2, "entries": {"e": {"metrics": {"mrr": {"signature": 7, "values": {}}}}}}')
    expect(() => readBaselineFile(file)).toThrow('at ["entries"]["e"]["metrics"]["mrr"]: expected `{ "signature": string, "values": { caseId: number } }`')
  })
})

describe('the 0.1.0 format (version 1)', () => {
  it('is read as it is and rewritten in the current format, keeping its signatures', () => {
    const file = join(dir, 'old.test.ts.json')
    const old = readFileSync(fileURLToPath(new URL('../../fixtures/baselines/v0.1.0/baseline.test.ts.json', import.meta.url)), 'utf8')
    writeFileSync(file, old)
    const read = readBaselineFile(file)!
    expect(read.version).toBe(1)
    expect(read.entries.qa!.metrics['recall@1']!.signature).toBe('R|k:1|empty:zero|dup:first|version:0.1.0')
    expect(read.entries.qa!.metrics['recall@1']!.measure).toBeUndefined()
    writeBaselineEntry(file, 'other', { metrics: { mrr: { measure: 'MRR', signature: 'RR|dup:first|rev:1', values: { a: 1 } } } })
    const text = readFileSync(file, 'utf8')
    expect(text.startsWith('{\n  "version": 2,\n')).toBe(true)
    expect(text).toContain('"signature": "R|k:1|empty:zero|dup:first|version:0.1.0"')
    expect(Object.keys(readBaselineFile(file)!.entries).sort()).toEqual(['other', 'qa'])
  })
})

describe('concurrent writers (real child processes)', () => {
  it('loses nothing when 4 processes write entries into the same file and into their own files at once', async () => {
    const bundle = await bundleBaselineFile(dir)
    const folder = join(dir, '__rag_baselines__')
    mkdirSync(folder)
    const shared = join(folder, 'shared.test.ts.json')
    const script = fileURLToPath(new URL('./baseline-writer.mjs', import.meta.url))
    const rounds = 15
    const results = await Promise.all(
      [0, 1, 2, 3].map(
        (worker) =>
          new Promise<{ worker: number; written: string[]; badReads: number }>((resolve, reject) => {
            const child = fork(script, [bundle, shared, join(folder, `own-${worker}.test.ts.json`), String(worker), String(rounds)], { stdio: 'pipe' })
            let stderr = ''
            child.stderr?.on('data', (d) => (stderr += String(d)))
            child.once('message', (m) => resolve(m as { worker: number; written: string[]; badReads: number }))
            child.once('exit', (code) => {
              if (code !== 0) reject(new Error(`writer ${worker} exited with ${code}: ${stderr}`))
            })
            child.once('error', reject)
          }),
      ),
    )
    expect(results.map((r) => r.badReads)).toEqual([0, 0, 0, 0])
    const all = results.flatMap((r) => r.written).sort()
    expect(all).toHaveLength(4 * rounds)
    const text = readFileSync(shared, 'utf8')
    expect(() => JSON.parse(text)).not.toThrow()
    expect(Object.keys(readBaselineFile(shared)!.entries).sort()).toEqual(all)
    expect(text).toBe(serializeBaselineFile(readBaselineFile(shared)!))
    for (const r of results) {
      expect(Object.keys(readBaselineFile(join(folder, `own-${r.worker}.test.ts.json`))!.entries).sort()).toEqual([...r.written].sort())
    }
    expect(readdirSync(folder).sort()).toEqual(['own-0.test.ts.json', 'own-1.test.ts.json', 'own-2.test.ts.json', 'own-3.test.ts.json', 'shared.test.ts.json'])
  }, 60_000)
})
