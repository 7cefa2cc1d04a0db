/**
 * For `import { expect } from '@jest/globals'` users: registers every matcher on that `expect`
 * and augments the `expect` package's `Matchers`.
 */
import { expect } from '@jest/globals'
import { allMatchers } from '../matchers/all.js'
import type { RagAsymmetricMatchers, RagMatchers } from '../matchers/types.js'

expect.extend(allMatchers as never)

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<R extends void | Promise<void>, T = unknown> extends RagMatchers<R, T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchers extends RagAsymmetricMatchers {}
}

export { configure } from '../matchers/config.js'
