// The runtime matrix's Vitest project (scripts/runtime-matrix.mjs copies this folder into a fresh
// project): the setup file registers the matchers, the rag-matchers reporter writes rag-report/, and
// the json reporter gives the script its counts.
export default {
  test: {
    include: ['*.spec.ts'],
    setupFiles: ['./vitest.setup.ts'],
    reporters: ['default', 'rag-matchers/reporter', 'json'],
    outputFile: { json: 'runner-results.json' },
    testTimeout: 30_000,
  },
}
