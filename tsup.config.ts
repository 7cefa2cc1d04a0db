import { existsSync } from 'node:fs'
import { defineConfig } from 'tsup'

// Entries are keyed by their output path so dist mirrors the source tree (dist/src, dist/matchers).
const candidates: Record<string, string> = {
  'src/index': 'src/index.ts',
  'matchers/index': 'matchers/index.ts',
  'matchers/vitest': 'matchers/vitest.ts',
  'matchers/jest': 'matchers/jest.ts',
  'matchers/jest-globals': 'matchers/jest-globals.ts',
  'matchers/jest-environment': 'matchers/jest-environment.ts',
  'matchers/reporter': 'matchers/reporter.ts',
  'matchers/jest-reporter': 'matchers/jest-reporter.ts',
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
  external: ['vitest', '@jest/globals', 'jest-environment-node', '@huggingface/transformers', '@xenova/transformers', 'ollama', 'csv-parse'],
})
