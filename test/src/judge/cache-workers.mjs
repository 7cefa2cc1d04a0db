// Worker for cache.test.ts: hammers one cache folder with shared and private entries, reading the shared
// ones in between, and reports how many reads were not clean hits/misses. The cache module comes as a
// bundled file path (workerData.bundle) because worker threads cannot load TypeScript.
import { parentPort, workerData } from 'node:worker_threads'

const { judgeCache, JUDGE_CACHE_FORMAT } = await import(workerData.bundle)
const { dir, worker, rounds, shared, padding } = workerData
const warnings = []
const cache = judgeCache({ dir, onWarning: (message) => warnings.push(message) })

const entry = (key, value) => ({
  format: JUDGE_CACHE_FORMAT,
  key,
  template: 'test.step@00000000',
  model: 'm',
  options: { temperature: 0, seed: 42 },
  schema: {},
  messages: [{ role: 'user', content: padding }],
  reply: { content: JSON.stringify(value), value, attempts: 1 },
})

let badReads = 0
const own = []
for (let round = 0; round < rounds; round++) {
  const jobs = []
  for (const key of shared) jobs.push(cache.write(entry(key, { shared: key })))
  const mine = `${String(worker).padStart(2, '0')}${String(round).padStart(4, '0')}`.padEnd(64, 'a')
  own.push(mine)
  jobs.push(cache.write(entry(mine, { worker, round })))
  for (const key of shared) {
    jobs.push(
      cache.read(key).then((r) => {
        if (r.status === 'corrupt' || (r.status === 'hit' && r.entry.reply.value.shared !== key)) badReads++
      }),
    )
  }
  await Promise.all(jobs)
}
parentPort.postMessage({ worker, own, badReads, warnings })
