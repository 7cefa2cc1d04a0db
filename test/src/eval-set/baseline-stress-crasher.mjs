// Child process for the lock stress test: plays `crashes` writers that die while holding the lock.
// Each time it takes `<file>.lock` the ordinary way (create with 'wx'), backdates it past `staleMs`
// and leaves it behind, so that every waiting writer sees a stale lock at the same moment: the race
// in which a stat-then-unlink takeover deletes a lock another writer has just taken.
import { closeSync, openSync, utimesSync, writeSync } from 'node:fs'

const [file, crashes] = process.argv.slice(2)
const lock = `${file}.lock`
const sleeper = new Int32Array(new SharedArrayBuffer(4))
const old = () => new Date(Date.now() - 60_000)
let done = 0
while (done < Number(crashes)) {
  let fd
  try {
    fd = openSync(lock, 'wx')
  } catch {
    Atomics.wait(sleeper, 0, 0, 1)
    continue
  }
  writeSync(fd, `crashed writer ${process.pid} ${done}\n`)
  closeSync(fd)
  utimesSync(lock, old(), old())
  done++
  Atomics.wait(sleeper, 0, 0, 15)
}
process.send({ crashes: done })
