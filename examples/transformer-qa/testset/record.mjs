#!/usr/bin/env node
// Records examples/transformer-qa/testset/__rag_judge_cache__ from the scripted fake writer (record.ts).
// The recorder is TypeScript: it is loaded through Vitest's module runner, as run-example.mjs does.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createVitest } from 'vitest/node'

const here = dirname(fileURLToPath(import.meta.url))
const runner = await createVitest('run', { config: join(here, '..', '..', 'vitest.config.ts'), watch: false })
let code = 1
try {
  code = await (await runner.import(join(here, 'record.ts'))).record()
} finally {
  await runner.close()
}
process.exit(code)
