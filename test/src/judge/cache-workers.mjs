// Worker for cache.test.ts: hammers one cache folder with shared and private entries, reading the shared
// ones in between, and reports how many reads were not clean hits/misses. The cache module comes as a
// bundled file path (workerData.bundle) because worker threads cannot load TypeScript.
import { parentPort, workerData } from 'node:worker_threads'

const { judgeCache, judgeCacheKey, JUDGE_CACHE_FORMAT } = await import(workerData.bundle)
const { dir, worker, rounds, shared, padding } = workerData
const warnings = []
const cache = judgeCache({ dir, onWarning: (message) => warnings.push(message) })

// Entries must hash to their names, so each label makes its own request (the padding keeps them large).
const requestFor = (label) => ({
  template: 'test.step@00000000',
  model: 'm',
  options: { temperature: 0, seed: 42 },
  schema: {},
  messages: [{ role: 'user', content: `${label}\n${padding}` }],
})
const keyOf = (label) => judgeCacheKey(requestFor(label))
const entry = (label, value) => ({ format: JUDGE_CACHE_FORMAT, key: keyOf(label), ...requestFor(label), reply: { content: JSON.stringify(value), value, attempts: 1 } })
// Built once: hashing is the cache's job on every write and read; the worker need not repeat it.
const sharedEntries = shared.map((label) => entry(label, { shared: label }))
const sharedKeys = sharedEntries.map((e) => e.key)

let badReads = 0
const own = []
for (let round = 0; round < rounds; round++) {
  const jobs = []
  for (const e of sharedEntries) jobs.push(cache.write(e))
  const mine = entry(`worker ${worker} round ${round}`, { worker, round })
  own.push(mine.key)
  jobs.push(cache.write(mine))
  shared.forEach((label, i) => {
    jobs.push(
      cache.read(sharedKeys[i]).then((r) => {
        if (r.status === 'corrupt' || (r.status === 'hit' && r.entry.reply.value.shared !== label)) badReads++
      }),
    )
  })
  await Promise.all(jobs)
}
parentPort.postMessage({ worker, own, sharedKeys, badReads, warnings })
