/**
 * The property suite's harness: runs a registered matcher (allMatchers, so the declaration checks,
 * the compute and the recording all run) with and without `.not`, classifies what happened, and
 * checks the project's rule on it:
 *
 * - every outcome is a pass, a fail with a finite value (or a fail in both directions that says the
 *   value could not be computed), or a Matcher error; never another exception, never NaN in the
 *   headline, never a hang;
 * - `.not` passes only when the positive form fails with a finite value;
 * - input the positive form refuses with a Matcher error is refused under `.not` too;
 * - input holding a value marked in MUST_REFUSE (arbitraries.ts: a hole in a user array, an options object
 *   that is not a plain object with own enumerable string keys) is a Matcher error in both directions.
 *
 * A rule broken throws an Error that names the matcher, the direction and what happened, so a shrunk
 * counterexample reads as a bug report.
 */
import { allMatchers } from '../../matchers/all.js'
import { MUST_REFUSE } from './arbitraries.js'
import type { MatcherResult } from '../../matchers/context.js'
import { matcherContext } from '../helpers/matcher-context.js'
import type { Judge, JudgeReply, JudgeRequest, JsonSchema } from '../../src/judge/types.js'
// the library's seeded PRNG, so every generated case can be replayed
import { mulberry32 as prng } from '../../src/eval-set/statistics.js'

export type MatcherName = keyof typeof allMatchers

export type Outcome =
  | {
      readonly kind: 'pass' | 'fail'
      readonly value: unknown
      readonly metricPass: boolean
      readonly headline: string
      readonly message: string
      readonly uncomputable: boolean
    }
  | { readonly kind: 'matcher-error'; readonly message: string }

function describeError(error: unknown): string {
  const e = error as { name?: unknown; message?: unknown } | null
  return `${String(e?.name ?? typeof error)}: ${String(e?.message ?? error).slice(0, 500)}`
}

function classify(name: string, isNot: boolean, result: MatcherResult): Outcome {
  if (result === null || typeof result !== 'object' || typeof result.pass !== 'boolean' || typeof result.message !== 'function') {
    throw new Error(`${name}${isNot ? ' (.not)' : ''} returned no matcher result: ${String(result)}`)
  }
  let message: string
  try {
    message = result.message()
  } catch (error) {
    throw new Error(`${name}${isNot ? ' (.not)' : ''}: building the message threw ${describeError(error)}`, { cause: error })
  }
  const headline = message.split('\n')[2] ?? ''
  // "… could not be computed, so the assertion fails." / "… is undefined for these data, so the assertion fails."
  const uncomputable = /so the assertion fails/.test(headline)
  const assertionPasses = isNot ? !result.pass : result.pass
  return { kind: assertionPasses ? 'pass' : 'fail', value: result.meta?.value, metricPass: result.pass, headline, message, uncomputable }
}

function caught(name: string, isNot: boolean, error: unknown): Outcome {
  if ((error as Error | null)?.name === 'MatcherUsageError') {
    const message = (error as Error).message
    if (!message.includes('Matcher error:')) throw new Error(`${name}: a MatcherUsageError without the Matcher error layout: ${message}`)
    return { kind: 'matcher-error', message }
  }
  throw new Error(`${name}${isNot ? ' (.not)' : ''} threw ${describeError(error)} instead of a pass, a fail or a Matcher error`)
}

/** One synchronous matcher call; an async matcher here is a harness misuse. */
export function runSync(name: MatcherName, isNot: boolean, received: unknown, args: readonly unknown[]): Outcome {
  let result: MatcherResult | Promise<MatcherResult>
  try {
    result = allMatchers[name].call(matcherContext(isNot), received, ...args)
  } catch (error) {
    return caught(name, isNot, error)
  }
  if (result instanceof Promise) throw new Error(`${name} is async; use runAsync`)
  return classify(name, isNot, result)
}

/** One matcher call that may be async, bounded by `timeoutMs` (a hang is a broken rule too). */
export async function runAsync(name: MatcherName, isNot: boolean, received: unknown, args: readonly unknown[], timeoutMs = 5_000): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}${isNot ? ' (.not)' : ''} did not settle within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    const result = await Promise.race([Promise.resolve().then(() => allMatchers[name].call(matcherContext(isNot), received, ...args)), hang])
    return classify(name, isNot, result)
  } catch (error) {
    if ((error as Error).message?.includes('did not settle within')) throw error
    return caught(name, isNot, error)
  } finally {
    clearTimeout(timer)
  }
}

/** The rule on one outcome: a pass or fail carries a finite value (or says it could not be computed, failing both ways). */
export function checkOutcome(name: string, isNot: boolean, o: Outcome): void {
  if (o.kind === 'matcher-error') return
  const where = `${name}${isNot ? ' (.not)' : ''}`
  if (/\bNaN\b/.test(o.headline)) throw new Error(`${where}: NaN in the headline: ${o.headline}`)
  if (o.uncomputable) {
    if (o.kind === 'pass') throw new Error(`${where} passed although its value could not be computed`)
    return
  }
  if (typeof o.value !== 'number' || !Number.isFinite(o.value))
    throw new Error(`${where} ${o.kind === 'pass' ? 'passed' : 'failed'} with a non-finite value ${String(o.value)}: ${o.headline}`)
}

/** Both directions on the same input, and the rule between them. */
export function checkPair(name: string, positive: Outcome, negated: Outcome): void {
  checkOutcome(name, false, positive)
  checkOutcome(name, true, negated)
  if (positive.kind === 'matcher-error' && negated.kind !== 'matcher-error') {
    throw new Error(`${name}: the positive form refuses the input (${positive.message.split('\n').find((l) => l.startsWith('Matcher error'))}) but .not ${negated.kind}es`)
  }
  if (negated.kind === 'pass') {
    if (positive.kind !== 'fail' || positive.uncomputable || typeof positive.value !== 'number' || !Number.isFinite(positive.value)) {
      throw new Error(`${name}: .not passed although the positive form did not fail with a finite value (positive: ${positive.kind})`)
    }
  }
}

/** Whether `value` holds (within a few levels of arrays and plain objects) a value marked in MUST_REFUSE. */
export function holdsRefused(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false
  if (MUST_REFUSE.has(value)) return true
  if (depth >= 4) return false
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) if (i in value && holdsRefused(value[i], depth + 1)) return true
    return false
  }
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return false
  return Object.values(value).some((v) => holdsRefused(v, depth + 1))
}

/** Input that must be refused was: a Matcher error in both directions, or the rule is broken. */
export function checkRefused(name: string, positive: Outcome, negated: Outcome): void {
  for (const [o, isNot] of [
    [positive, false],
    [negated, true],
  ] as const) {
    if (o.kind !== 'matcher-error') {
      throw new Error(
        `${name}${isNot ? ' (.not)' : ''} ${o.kind}ed on input with a hole or a non-plain options object instead of refusing it with a Matcher error: ${o.headline}`,
      )
    }
  }
}

export function checkSync(name: MatcherName, received: unknown, args: readonly unknown[]): void {
  const positive = runSync(name, false, received, args)
  const negated = runSync(name, true, received, args)
  checkPair(name, positive, negated)
  if (holdsRefused(received) || holdsRefused(args)) checkRefused(name, positive, negated)
}

export async function checkAsync(name: MatcherName, received: unknown, args: readonly unknown[]): Promise<void> {
  const positive = await runAsync(name, false, received, args)
  const negated = await runAsync(name, true, received, args)
  checkPair(name, positive, negated)
  if (holdsRefused(received) || holdsRefused(args)) checkRefused(name, positive, negated)
}

// ---------------------------------------------------------------- a random, schema-valid judge

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

class FakeJudgeError extends Error {
  override readonly name = 'JudgeError'
}

/** Numbered data sections of a prompt (`<<<CLAIM 2 #nonce>>>`), counted per label. */
function sectionCounts(prompt: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const m of prompt.matchAll(/^<<<([A-Z][A-Z ]*?) (\d+) #[0-9a-f]{8}>>>$/gm)) {
    const label = m[1] as string
    counts.set(label, Math.max(counts.get(label) ?? 0, Number(m[2])))
  }
  return counts
}

/**
 * A judge that answers every request with a random reply valid for its schema and its `check`
 * (one verdict per numbered item, passage numbers in range); lists may be empty. Invalid after a few
 * tries, it fails the way a real judge does, with a JudgeError.
 */
export function randomJudge(seed: number, pool: readonly string[]): Judge {
  // Re-seeded per request from its prompt, so the same question gets the same reply in both directions.
  let rnd = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T
  const words = pool.filter((w) => w.trim().length > 0)
  const text = () => (words.length > 0 ? pick(words) : 'a claim')
  function gen(schema: JsonSchema, key: string, counts: Map<string, number>): unknown {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
    if (schema.enum !== undefined) return pick(schema.enum)
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {}
        for (const [k, s] of Object.entries(schema.properties ?? {})) out[k] = gen(s, k, counts)
        return out
      }
      case 'array': {
        const items = schema.items ?? { type: 'string' }
        const numbered = Object.entries(items.properties ?? {}).find(([k, s]) => s.type === 'integer' && k !== 'context')
        if (numbered !== undefined) {
          const n = Math.max(0, ...[...counts.entries()].filter(([label]) => label !== 'CONTEXT').map(([, c]) => c))
          return Array.from({ length: n }, (_, i) => ({ ...(gen(items, key, counts) as object), [numbered[0]]: i + 1 }))
        }
        return Array.from({ length: Math.floor(rnd() * 4) }, () => gen(items, key, counts))
      }
      case 'integer':
        if (key === 'context') return Math.floor(rnd() * ((counts.get('CONTEXT') ?? 0) + 1))
        return Math.floor((schema.minimum ?? 1) + rnd() * ((schema.maximum ?? 5) - (schema.minimum ?? 1) + 1))
      case 'number':
        return rnd()
      case 'boolean':
        return rnd() < 0.5
      default:
        return text()
    }
  }
  const judge: Judge = {
    id: `random:${seed}`,
    model: 'random',
    temperature: 0,
    seed: 42,
    async ask<T>(request: JudgeRequest): Promise<JudgeReply<T>> {
      const counts = sectionCounts(request.prompt)
      rnd = prng(seed ^ hash(`${request.seed ?? ''}|${request.template}|${request.prompt}`))
      for (let attempt = 1; attempt <= 8; attempt += 1) {
        const value = gen(request.schema, '', counts)
        if ((request.check?.(value) ?? []).length === 0)
          return { value: value as T, raw: JSON.stringify(value), key: 'random', cached: false, seed: request.seed ?? 42, attempts: attempt }
      }
      throw new FakeJudgeError(`the random judge found no valid reply for ${request.template}`)
    },
  }
  return judge
}
