// Child process for baseline-file.test.ts: writes its own entries into a shared baseline file (and
// into a file of its own), re-reading the shared file between writes. The baseline module comes as
// an esbuild bundle (argv[2]) because a plain node process cannot load TypeScript.
const [bundle, sharedFile, ownFile, worker, rounds] = process.argv.slice(2)
const { readBaselineFile, writeBaselineEntry } = await import(bundle)

const sig = 'R|k:3|empty:zero|dup:first|version:0.1.0'
const entry = (round) => ({
  metrics: {
    'recall@3': { signature: sig, values: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`case-${i}`, (i * Number(worker) + round) / 1000])) },
  },
})
let badReads = 0
const written = []
for (let round = 0; round < Number(rounds); round++) {
  const name = `w${worker}-r${round}`
  writeBaselineEntry(sharedFile, name, entry(round))
  writeBaselineEntry(ownFile, name, entry(round))
  written.push(name)
  try {
    const file = readBaselineFile(sharedFile)
    if (file === undefined || file.entries[name] === undefined) badReads++
  } catch {
    badReads++
  }
}
process.send({ worker: Number(worker), written, badReads })
