#!/usr/bin/env node
// A throw-away PostgreSQL cluster for the history tests and bench: `initdb` in a fresh temp folder, the
// server on 127.0.0.1 only (a free port, its socket in that folder), password authentication over TCP
// with a random password. `stop()` stops it and removes the folder. Root cannot run initdb, so as root
// the binaries run as the `postgres` OS user (Debian's package creates it), with the folder handed to it.
//
//   node scripts/pg-cluster.mjs     starts one, prints its URL, stops it on Ctrl-C (for the bench)
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A server the history tests use instead of starting their own (the `postgres` stage of run-tests sets it). */
export const POSTGRES_URL_ENV = 'RAG_MATCHERS_TEST_POSTGRES_URL'

/** The folder holding initdb and pg_ctl: $PG_BIN, else Debian's newest /usr/lib/postgresql/N/bin, else the PATH; undefined when none has them. */
export function findPostgresBin() {
  const has = (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))
  if (process.env.PG_BIN) return has(process.env.PG_BIN) ? process.env.PG_BIN : undefined
  const debian = '/usr/lib/postgresql'
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+(\.\d+)?$/.test(v) && has(join(debian, v, 'bin')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions.length > 0) return join(debian, versions[0], 'bin')
  }
  return (process.env.PATH ?? '').split(delimiter).find((dir) => dir && has(dir))
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/** The uid and gid of the `postgres` OS user, or undefined. */
function postgresUser() {
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' })
  const u = id('-u')
  const g = id('-g')
  if (u.status !== 0 || g.status !== 0) return undefined
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) }
}

/** A port nobody listens on at 127.0.0.1 right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

const tail = (text, lines = 5) => text.trim().split('\n').slice(-lines).join(' | ')

/**
 * Starts a cluster. Resolves to `{ url, port, password, dir, stop }`; rejects with one line saying why
 * not (no binaries, no `postgres` user as root, initdb or the server failing, with the end of its log).
 */
export async function startCluster(options = {}) {
  const bin = options.bin ?? findPostgresBin()
  if (!bin) throw new Error("no PostgreSQL server binaries (initdb, pg_ctl): install Debian's postgresql (.ci/install-postgresql) or set PG_BIN")
  let owner
  if (isRoot()) {
    owner = postgresUser()
    if (!owner) throw new Error("running as root, and there is no postgres OS user to run initdb as (Debian's postgresql package creates it)")
  }
  // As root: run each binary as postgres. runuser keeps the environment and needs no password.
  const as = (cmd, args) => (owner ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args])
  const exec = (cmd, args) => {
    const [c, a] = as(join(bin, cmd), args)
    return spawnSync(c, a, { encoding: 'utf8', timeout: 60_000 })
  }
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'rag-pg-'))
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  let running = false
  const stop = () => {
    if (running) {
      exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      running = false
    }
    rmSync(dir, { recursive: true, force: true })
    process.off('exit', stop)
  }
  // A test process that ends without calling stop (a crash, a timeout) still takes its server down.
  process.on('exit', stop)
  try {
    const password = randomBytes(12).toString('hex')
    const pwfile = join(dir, 'pwfile')
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
    if (owner) for (const path of [dir, pwfile]) chownSync(path, owner.uid, owner.gid)
    const init = exec('initdb', ['-D', data, '-U', 'postgres', `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C', '-N'])
    if (init.status !== 0) throw new Error(`initdb failed: ${tail(`${init.stderr ?? ''}${init.error?.message ?? ''}`)}`)
    rmSync(pwfile)
    // A throw-away cluster: durability off (fsync, full-page writes) for speed; the tests kill clients, never the server.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories='${dir}' -c fsync=off -c full_page_writes=off -c synchronous_commit=off`
      const start = exec('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', settings, 'start'])
      if (start.status === 0) {
        running = true
        return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, port, password, dir, stop }
      }
      const why = existsSync(log) ? readFileSync(log, 'utf8') : `${start.stdout}${start.stderr}`
      // Another process took the port between freePort and the bind: try another one.
      if (attempt < 3 && /could not bind|already in use/i.test(why)) continue
      throw new Error(`the PostgreSQL server did not start: ${tail(why)}`)
    }
  } catch (error) {
    stop()
    throw error
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const cluster = await startCluster().catch((error) => {
    console.error(`pg-cluster: ${error.message}`)
    process.exit(1)
  })
  console.log(cluster.url)
  const quit = () => {
    cluster.stop()
    process.exit(0)
  }
  process.on('SIGINT', quit)
  process.on('SIGTERM', quit)
  setInterval(() => {}, 1 << 30)
}
