import { existsSync } from 'node:fs'
import { defineConfig } from 'tsup'

// Entries are keyed by their output path so dist mirrors the source tree (dist/src, dist/runners, dist/cli).
const candidates: Record<string, string> = {
  'src/index': 'src/index.ts',
  'src/retrieval/public': 'src/retrieval/public.ts',
  'src/generation/public': 'src/generation/public.ts',
  'src/judge/public': 'src/judge/public.ts',
  'src/agreement/public': 'src/agreement/public.ts',
  'src/eval-set/public': 'src/eval-set/public.ts',
  'src/report/public': 'src/report/public.ts',
  'src/adapters/public': 'src/adapters/public.ts',
  'src/history/public': 'src/history/public.ts',
  'src/testset/public': 'src/testset/public.ts',
  'runners/matchers': 'runners/matchers.ts',
  'runners/vitest': 'runners/vitest.ts',
  'runners/jest': 'runners/jest.ts',
  'runners/jest-globals': 'runners/jest-globals.ts',
  'runners/jest-environment': 'runners/jest-environment.ts',
  'runners/reporter': 'runners/reporter.ts',
  'runners/jest-reporter': 'runners/jest-reporter.ts',
  'cli/main': 'cli/main.ts',
}
const entry = Object.fromEntries(Object.entries(candidates).filter(([, file]) => existsSync(file)))

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  dts: true,
  outDir: 'dist',
  target: 'node20',
  platform: 'node',
  splitting: true,
  // import.meta.url in the CJS build (data-file lookup) becomes a file URL of the bundle.
  shims: true,
  clean: true,
  sourcemap: false,
  external: [
    'vitest',
    '@jest/globals',
    'jest-environment-node',
    '@huggingface/transformers',
    '@xenova/transformers',
    'ollama',
    'openai',
    '@langchain/core',
    'llamaindex',
    'csv-parse',
    'better-sqlite3',
  ],
})
