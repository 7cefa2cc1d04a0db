#!/usr/bin/env node
// Assembles src/retrieval/trec/run-kernel.wat into src/retrieval/trec/run-kernel-wasm.ts (the module as base64,
// so that the ESM and CJS builds and bundlers carry it without a file to locate at run time). The generated file is
// committed; `--check` exits 1 when it differs from what the .wat assembles to (the kernel test runs the same check).
//   node scripts/build-wasm.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { assembleRunKernel, runKernelSource } from './wasm-source.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const target = join(root, 'src/retrieval/trec/run-kernel-wasm.ts')
const text = runKernelSource(await assembleRunKernel(readFileSync(join(root, 'src/retrieval/trec/run-kernel.wat'), 'utf8')))
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error('build-wasm: src/retrieval/trec/run-kernel-wasm.ts is out of date; run node scripts/build-wasm.mjs')
    process.exit(1)
  }
  console.log('build-wasm: run-kernel-wasm.ts matches run-kernel.wat')
} else {
  writeFileSync(target, text)
  console.log('build-wasm: wrote src/retrieval/trec/run-kernel-wasm.ts')
}
