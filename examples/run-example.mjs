#!/usr/bin/env node
// `npm run example`: runs the example RAG regression suite (examples/transformer-qa) on the
// built-in corpus, offline, and prints its results. Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
const args = ['run', '--config', join(root, 'examples', 'vitest.config.ts'), ...process.argv.slice(2)]
const result = spawnSync(process.execPath, [vitest, ...args], { cwd: root, stdio: 'inherit' })
process.exit(result.status ?? 1)
