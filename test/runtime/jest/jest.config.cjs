// The runtime matrix's Jest project (scripts/runtime-matrix.mjs copies this folder into a fresh
// project): CommonJS, the matchers from rag-matchers/jest, the rag-matchers reporter writing rag-report/.
/** @type {import('jest').Config} */
module.exports = {
  testMatch: ['<rootDir>/*.spec.cjs'],
  setupFilesAfterEnv: ['rag-matchers/jest'],
  reporters: ['default', 'rag-matchers/jest-reporter'],
  testTimeout: 30000,
}
