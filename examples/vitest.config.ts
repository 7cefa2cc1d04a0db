import { defineConfig } from 'vitest/config'

// The example suite: what `npm run example` runs.
export default defineConfig({
  test: {
    globals: true,
    root: new URL('..', import.meta.url).pathname,
    include: ['examples/**/*.test.ts'],
    setupFiles: ['test/setup/vitest-setup.ts'],
    testTimeout: 60_000,
  },
})
