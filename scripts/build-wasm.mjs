#!/usr/bin/env node
// Assembles each WebAssembly kernel's .wat (scripts/wasm-source.mjs KERNELS) into its -wasm.ts module (the module
// as base64, so that the ESM and CJS builds and bundlers carry it without a file to locate at run time). The
// generated files are committed; `--check` exits 1 when one differs from what its .wat assembles to (the kernel
// tests run the same check).
//   node scripts/build-wasm.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { assembleKernel, kernelSource, KERNELS } from './wasm-source.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')
let stale = 0
for (const kernel of KERNELS) {
  const text = kernelSource(kernel, await assembleKernel(readFileSync(join(root, kernel.wat), 'utf8'), kernel.wat))
  if (!check) {
    writeFileSync(join(root, kernel.ts), text)
    console.log(`build-wasm: wrote ${kernel.ts}`)
  } else if (readFileSync(join(root, kernel.ts), 'utf8') !== text) {
    console.error(`build-wasm: ${kernel.ts} is out of date; run node scripts/build-wasm.mjs`)
    stale++
  } else {
    console.log(`build-wasm: ${kernel.ts} matches ${kernel.wat}`)
  }
}
if (stale > 0) process.exit(1)
