// Async matchers are typed on expect(value) only; Vitest offers every `Matchers` member on the static
// `expect` as an asymmetric matcher, where an async one would silently never match.
import { expect } from 'vitest'
import '../../../runners/vitest.js'
// @ts-expect-error async matchers are never offered as asymmetric matchers
expect.toBeGroundedIn(['ctx'])
// @ts-expect-error nor the async embedding matcher
expect.toBeSemanticallySimilarTo('ref', 0.8)

// the sync ones are offered, inside other matchers
expect({ run: { retrieved: ['a'], relevant: ['a'] } }).toEqual({ run: expect.toHaveNdcgAtK(1, 1) })

export async function asyncForms(answer: string): Promise<void> {
  await expect(answer).toBeGroundedIn(['ctx'])
  await expect(answer).toBeSemanticallySimilarTo('ref', 0.8)
  await expect([{ answer, reference: 'r' }]).toBeSemanticallySimilarTo(0.8)
}
