import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    globals: true,
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['test/types/**', 'node_modules/**'],
    setupFiles: ['test/setup/vitest-setup.ts'],
    testTimeout: 30_000,
    // Jest and Vitest snapshots differ in header and escaping; keep each runner's own folder.
    resolveSnapshotPath: (testPath: string, ext: string) => testPath.replace(/([^/\\]+)$/, '__snapshots__/vitest/$1') + ext,
  },
})
