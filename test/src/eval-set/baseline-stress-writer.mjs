// Child process for the lock stress test in baseline-file.test.ts: `writes` entries of its own into
// one shared baseline file, each a locked read-modify-write. The baseline module comes as an esbuild
// bundle (argv[2]) because a plain node process cannot load TypeScript.
const [bundle, file, worker, writes] = process.argv.slice(2)
const { writeBaselineEntry } = await import(bundle)

const written = []
for (let i = 0; i < Number(writes); i++) {
  const name = `w${worker}-${String(i).padStart(3, '0')}`
  writeBaselineEntry(file, name, { metrics: { mrr: { measure: 'MRR', signature: 'RR|dup:first|rev:1', values: { q: i / 100 } } } })
  written.push(name)
}
process.send({ worker: Number(worker), written })
