import type { MatcherContext } from '../../matchers/context.js'

/**
 * The context a runner hands a matcher, for calling a matcher function directly (outside expect): the hint
 * reads as the runners print it, `expect(received)[.not].name(expected)`, and values print as strings.
 */
export function matcherContext(isNot: boolean): MatcherContext {
  return {
    isNot,
    promise: '',
    utils: {
      matcherHint: (name, received = 'received', expected = '', o = {}) => `expect(${received})${o.isNot === true ? '.not' : ''}.${name}(${expected})`,
      printReceived: (v) => String(v),
      printExpected: (v) => String(v),
    },
  }
}
