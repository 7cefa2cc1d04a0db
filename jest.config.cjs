/**
 * Jest runs the shared matcher suite (test/matchers) in its default CommonJS runtime, the way most
 * Jest users run it: TypeScript is compiled to CJS by @swc/jest, `.js` specifiers map to sources.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['<rootDir>/test/matchers/**/*.test.ts', '<rootDir>/test/jest/**/*.test.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/jest-setup.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  snapshotResolver: '<rootDir>/test/setup/jest-snapshot-resolver.cjs',
  testTimeout: 30000,
}
