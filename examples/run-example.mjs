#!/usr/bin/env node
// `npm run example`: runs the example RAG regression suite (examples/transformer-qa) on the
// built-in corpus, offline, and prints its results. Extra arguments go to Vitest.
// `npm run example -- --generate` first regenerates data/generated.jsonl, an eval set generated from the
// corpus, from the committed replay cache (no model; examples/transformer-qa/testset/README.md).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
const config = join(root, 'examples', 'vitest.config.ts')
// --live (regenerate the answers through Ollama), --dense (dense retriever) and --generate (the generated
// eval set) are ours; the first two reach the suite as env vars. Every other argument goes to Vitest.
const rest = []
let generate = false
for (const arg of process.argv.slice(2)) {
  if (arg === '--live') process.env.RAG_MATCHERS_EXAMPLE_LIVE = '1'
  else if (arg === '--dense') process.env.RAG_MATCHERS_RETRIEVER = 'dense'
  else if (arg === '--generate') generate = true
  else rest.push(arg)
}
if (generate) {
  // The generator is TypeScript too: loaded through Vitest's module runner. It prints the rejection table.
  const { createVitest } = await import('vitest/node')
  const runner = await createVitest('run', { config, watch: false })
  let code = 1
  try {
    code = await (await runner.import(join(root, 'examples', 'transformer-qa', 'testset', 'generate.ts'))).generateExampleSet()
  } finally {
    await runner.close()
  }
  if (code !== 0) process.exit(code)
}
if (process.env.RAG_MATCHERS_EXAMPLE_LIVE === '1') {
  // The generator is TypeScript: load it through Vitest's module runner, then run the suite on its output.
  const { createVitest } = await import('vitest/node')
  const runner = await createVitest('run', { config, watch: false })
  let code = 1
  try {
    code = await (await runner.import(join(root, 'examples', 'transformer-qa', 'live.ts'))).prepareLiveRun()
  } finally {
    await runner.close()
  }
  if (code !== 0) process.exit(code)
}
const args = ['run', '--config', config, ...rest]
const result = spawnSync(process.execPath, [vitest, ...args], { cwd: root, stdio: 'inherit' })
console.log('\nThis run is in the run history (.rag-matchers/history.sqlite): see it over time in your browser with `npx rag-matchers ui`')
process.exit(result.status ?? 1)
