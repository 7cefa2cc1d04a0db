// Writes a synthetic generation workload (answer/reference pairs of 15–40 words) with a fixed seed,
// used by bench/run.mjs when ../shared/golden/bench/generation_workload.json is not present.
// Words come from a fixed vocabulary with Zipf-like frequencies; references are perturbed answers
// (substitutions, deletions, insertions, swaps) so the metrics see realistic partial overlap.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

const FUNCTION = 'the a an of to in and is was for on with by as at from that this it be are were has had which'.split(' ')
const CONTENT = (
  'model attention layer encoder decoder head dimension training translation score result task data token ' +
  'network weight learning rate step batch vocabulary output input position sequence value query key vector ' +
  'large small fast slow better worse improve reduce increase achieve report measure evaluate compare test ' +
  'run use apply compute build start begin help assist kid child ill sick close shut difficult hard quick ' +
  'big huge car automobile buy purchase rich wealthy error mistake paper study method approach system'
).split(' ')

/** mulberry32, the seeded PRNG every bench workload is generated with. */
export function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function generatePairs(n = 20_000, seed = 424242) {
  const rand = mulberry32(seed)
  const vocab = [...FUNCTION, ...CONTENT]
  const zipf = vocab.map((_, i) => 1 / (i + 1))
  const total = zipf.reduce((a, b) => a + b, 0)
  const word = () => {
    let r = rand() * total
    for (let i = 0; i < vocab.length; i += 1) if ((r -= zipf[i]) <= 0) return vocab[i]
    return vocab[vocab.length - 1]
  }
  const pairs = []
  for (let i = 0; i < n; i += 1) {
    const len = 15 + Math.floor(rand() * 26)
    const hyp = Array.from({ length: len }, word)
    const ref = []
    for (const w of hyp) {
      const r = rand()
      if (r < 0.1) continue
      if (r < 0.25) ref.push(word())
      else ref.push(w)
      if (rand() < 0.05) ref.push(word())
    }
    if (ref.length > 3 && rand() < 0.3) {
      const j = Math.floor(rand() * (ref.length - 1))
      ;[ref[j], ref[j + 1]] = [ref[j + 1], ref[j]]
    }
    pairs.push({ hypothesis: hyp.join(' '), reference: ref.join(' ') })
  }
  return pairs
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = join(here, '.data', 'generation_workload.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, JSON.stringify({ meta: { seed: 424242, n_pairs: 20_000 }, pairs: generatePairs() }))
  console.log(`wrote ${out}`)
}
