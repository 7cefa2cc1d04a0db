#!/usr/bin/env node
// After tsup: the CommonJS declarations of rag-matchers/vitest take Vitest's types from the ESM ones.
//
// In a CommonJS consumer, `declare module 'vitest'` in a .d.cts resolves 'vitest' through its
// "require" types (Vitest 5: index.d.cts, `export * from './dist/index.js'`), and an augmentation
// there does not reach the `Assertion` that `expect` returns: every matcher vanished. The ESM
// declarations resolve 'vitest' to the file that declares `Assertion`, so vitest.d.cts drops its
// own copy of the augmentation and references vitest.d.ts, which TypeScript then reads as ESM
// (this package is "type": "module") wherever the .d.cts is loaded.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const cts = join(root, 'dist/runners/vitest.d.cts')
const REFERENCE = '/// <reference path="./vitest.d.ts" />'

/** Removes the block that starts at `head` (through its matching closing brace). */
function cutBlock(text, head) {
  const start = text.indexOf(head)
  if (start === -1) throw new Error(`finish-dist: \`${head}\` not found in ${cts}; did the declarations of runners/vitest.ts change?`)
  let depth = 0
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) return text.slice(0, start) + text.slice(i + 1).replace(/^\n/, '')
  }
  throw new Error(`finish-dist: unbalanced braces after \`${head}\` in ${cts}`)
}

let text = readFileSync(cts, 'utf8')
if (!text.startsWith(REFERENCE)) {
  text = cutBlock(cutBlock(text, "declare module 'vitest' {"), 'declare global {')
  writeFileSync(cts, `${REFERENCE}\n${text}`)
}

// The history UI's browser app (rag-matchers ui): bundled into dist/ui/app.
const { buildUi } = await import('./build-ui.mjs')
await buildUi()
