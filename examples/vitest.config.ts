import { defineConfig } from 'vitest/config'

// The example suite: what `npm run example` runs. The verbose reporter lists every check (and the
// reason of each skipped one); the rag-matchers reporter prints the metric tables and writes
// rag-report/rag-report.json and rag-report/rag-report.html.
export default defineConfig({
  test: {
    globals: true,
    root: new URL('..', import.meta.url).pathname,
    include: ['examples/**/*.test.ts'],
    setupFiles: ['examples/setup.ts'],
    testTimeout: 60_000,
    reporters: ['verbose', ['./runners/reporter.ts', { outputDir: 'rag-report' }]],
  },
})
