// SQLite refuses a lock upgrade at once, without its busy handler, when waiting could deadlock: a new
// store switching to WAL while another process holds the write lock got "database is locked" in CI
// (8 processes opening one new store). The open now retries that step until the busy timeout.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { SqliteBackend } from '../../src/history/sqlite.js'
import { isBusy, retryWhileBusy } from '../../src/history/sqlite-busy.js'

const repo = join(import.meta.dirname, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'rag-sqlite-busy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const busyBetter = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
const busyNode = Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 })

describe('isBusy', () => {
  test('knows both bindings, extended codes included', () => {
    expect(isBusy(busyBetter)).toBe(true)
    expect(isBusy(busyNode)).toBe(true)
    expect(isBusy(Object.assign(new Error('x'), { code: 'SQLITE_BUSY_RECOVERY' }))).toBe(true)
    expect(isBusy(Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode: 261 }))).toBe(true) // SQLITE_BUSY_RECOVERY
  })
  test('is false for other errors and non-errors', () => {
    expect(isBusy(Object.assign(new Error('x'), { code: 'SQLITE_LOCKED' }))).toBe(false)
    expect(isBusy(Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode: 6 }))).toBe(false)
    expect(isBusy(new Error('database is locked'))).toBe(false)
    expect(isBusy(undefined)).toBe(false)
    expect(isBusy('SQLITE_BUSY')).toBe(false)
  })
})

describe('retryWhileBusy', () => {
  test('repeats the step while busy and returns its value', () => {
    let calls = 0
    const waits: number[] = []
    const value = retryWhileBusy(
      () => {
        calls++
        if (calls < 4) throw calls % 2 ? busyBetter : busyNode
        return 'done'
      },
      10_000,
      (ms) => waits.push(ms),
    )
    expect(value).toBe('done')
    expect(calls).toBe(4)
    expect(waits).toHaveLength(3)
    for (const ms of waits) expect(ms).toBeGreaterThan(0)
  })
  test('lets any other error through at once', () => {
    let calls = 0
    const other = new Error('disk I/O error')
    expect(() =>
      retryWhileBusy(
        () => {
          calls++
          throw other
        },
        10_000,
        () => {},
      ),
    ).toThrow(other)
    expect(calls).toBe(1)
  })
  test('gives the busy error back once the time is up', () => {
    let calls = 0
    expect(() =>
      retryWhileBusy(
        () => {
          calls++
          throw busyBetter
        },
        30,
        (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms),
      ),
    ).toThrow('database is locked')
    expect(calls).toBeGreaterThan(1)
  })
})

/** A second process that takes the write lock on a new rollback-journal file, says `locked`, and commits after `holdMs`. */
function holdWriteLock(path: string, holdMs: number): Promise<{ release: Promise<string> }> {
  const driver = createRequire(join(repo, 'package.json')).resolve('better-sqlite3')
  const source = `const D = require(${JSON.stringify(driver)}); const db = new D(${JSON.stringify(path)});
db.exec('CREATE TABLE t(x)'); db.exec('BEGIN IMMEDIATE'); db.exec('INSERT INTO t VALUES (1)');
console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('released') }, ${holdMs})`
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  const release = new Promise<string>((resolve) => child.on('close', () => resolve(out)))
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('locked')) resolve({ release })
    })
    child.on('error', reject)
    child.on('close', (code) => reject(new Error(`lock holder exited (${code}) before taking the lock: ${out}`)))
  })
}

describe('opening a store while another process writes to it', () => {
  test('waits for the lock instead of failing with "database is locked", and the file is in WAL mode', async () => {
    const path = join(dir, 'held.sqlite')
    const { release } = await holdWriteLock(path, 700)
    const backend = SqliteBackend.open(path, { root: repo, create: true })
    try {
      expect(await backend.all('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }])
      // The holder's row is there: the open waited for its commit rather than racing it.
      expect(await backend.all('SELECT x FROM t')).toEqual([{ x: 1 }])
    } finally {
      await backend.close()
    }
    expect(await release).toBe('locked\nreleased\n')
  })
})
