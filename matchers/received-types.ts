/**
 * Picks a matcher's parameter list from the received type `T`: an answer string takes `One`, an eval
 * set takes `Set`. When `T` is not known (any/unknown, asymmetric use) both forms are offered.
 */
type IsAny<T> = 0 extends 1 & T ? true : false

export type ByReceived<T, R, One extends unknown[], Set extends unknown[]> =
  IsAny<T> extends true
    ? ((...args: One) => R) & ((...args: Set) => R)
    : unknown extends T
      ? ((...args: One) => R) & ((...args: Set) => R)
      : [T] extends [string]
        ? (...args: One) => R
        : [T] extends [readonly unknown[] | { readonly cases: readonly unknown[] } | { readonly turns: readonly unknown[] }]
          ? (...args: Set) => R
          : ((...args: One) => R) & ((...args: Set) => R)
