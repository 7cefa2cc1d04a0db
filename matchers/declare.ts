/**
 * One declaration per matcher, the single source of truth for what it takes and reports. From the
 * declarations come the objects handed to `expect.extend` (all.ts), the async list, the strict
 * argument and option checks below, the metric scale the reporters record (all.ts), the
 * generated API reference (docs/api.md) and the test that the type declarations name the same
 * matchers, arguments and option keys.
 */
import { metricScale } from '../src/eval-set/metrics.js'
import { isPlainObject, optionsProblem, unknownKeyProblem } from '../src/options.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { matcherError } from './validate.js'

/** A positional argument: its name in the hint (`k, min`), its type and meaning for the docs. */
export interface ArgSpec {
  readonly name: string
  readonly type: string
  readonly doc: string
  readonly optional?: boolean
}

/** One key of the trailing options object. `check`, when given, is applied before the matcher runs. */
export interface OptionSpec {
  readonly type: string
  readonly doc: string
  readonly default?: string
  readonly check?: (value: unknown) => boolean
}

/** One received form: what `expect(…)` holds, and the arguments that go with it. */
export interface FormSpec {
  /** What the received value is, for the docs and messages. */
  readonly received: string
  /** Which received values take this form; the first form that matches applies. Absent: any value. */
  readonly when?: (received: unknown) => boolean
  readonly args: readonly ArgSpec[]
  /** The trailing options object, by key. Absent: the form takes no options. */
  readonly options?: Readonly<Record<string, OptionSpec>>
  /** The options object must be given (it carries a required key). */
  readonly optionsRequired?: boolean
}

export interface MetricSpec {
  /** The metric's name in messages, e.g. `nDCG@k`. */
  readonly name: string
  /** Name in the eval-set metric registry (src/eval-set/metrics.ts), whose scale then applies. */
  readonly registry?: string
  /** Full scale, for metrics the registry does not know: 1 (0–1), 100 (sacrebleu), 2 (−1…1). */
  readonly scale?: number
  readonly direction: 'higher' | 'lower'
  /** The comparison the matcher makes; `.not` flips it. `<=` for lower-is-better metrics (TER). */
  readonly comparator: '>=' | '<' | '<='
}

export type MatcherImpl = (this: MatcherContext, received: unknown, ...args: never[]) => MatcherResult | Promise<MatcherResult>

export interface MatcherDeclaration<N extends string = string> {
  readonly name: N
  readonly async: boolean
  readonly family: 'retrieval' | 'generation' | 'embeddings' | 'judge' | 'eval-set' | 'agreement' | 'agent'
  readonly summary: string
  readonly forms: readonly FormSpec[]
  readonly metric: MetricSpec
  /** A short example for the docs (one or two lines of a test). */
  readonly example: string
  /** An input that fails, so the docs can show a real failure message. */
  readonly failing?: { readonly received: unknown; readonly args: readonly unknown[]; readonly not?: boolean }
  /** The matcher over the core; receives the arguments after the declaration's checks passed. */
  readonly compute: MatcherImpl
}

/** A metric that passes when its value is ≥ the threshold (`.not`: <); its scale from the registry name or given. */
export function atLeast(name: string, scale: { readonly registry: string } | { readonly scale: number }): MetricSpec {
  return { name, ...scale, direction: 'higher', comparator: '>=' }
}

/** The full scale of a declared metric: the registry's when it names one, else its own. */
export function declaredScale(metric: MetricSpec): number {
  if (metric.registry !== undefined) return metricScale(metric.registry)
  return metric.scale ?? 1
}

/** `k, min` as the hint shows it: the required arguments of a form. */
export function argsHint(form: FormSpec): string {
  const names = form.args.filter((a) => a.optional !== true).map((a) => a.name)
  return [...names, ...(form.optionsRequired === true ? ['options'] : [])].join(', ')
}

/** A plain object (prototype Object.prototype or null); the one definition lives in src/options.ts. */
export { isPlainObject }

/** The form that applies to `received`. */
export function formFor(decl: MatcherDeclaration, received: unknown): FormSpec {
  return decl.forms.find((f) => f.when === undefined || f.when(received)) ?? (decl.forms[decl.forms.length - 1] as FormSpec)
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/**
 * The declaration's checks: no extra positional argument, options (when given) a plain object with own
 * enumerable string keys (src/options.ts `optionsProblem`: not a Map, a class instance, an array, an
 * object with an inherited, symbol or non-enumerable key), known keys only and each declared check
 * passing. Throws a Matcher error, with or without `.not`. Returns the arguments for `compute`, the
 * options replaced by a snapshot of their own enumerable keys (each read once), so what was checked is
 * what the matcher uses.
 */
export function checkCall(ctx: MatcherContext, decl: MatcherDeclaration, form: FormSpec, args: readonly unknown[]): readonly unknown[] {
  const hint = argsHint(form)
  // Trailing `undefined`s are what a caller writes for "not given"; they are not extra.
  let given = args.length
  while (given > 0 && args[given - 1] === undefined) given -= 1
  const names = [...form.args.map((a) => a.name), ...(form.options === undefined ? [] : ['options'])]
  const takes = names.length === 0 ? 'takes no arguments' : `takes at most ${plural(names.length, 'argument')} (${names.join(', ')})`
  const extra = (at: number): never => matcherError(ctx, decl.name, hint, `${decl.name} ${takes} with ${form.received}; got ${given}. Remove the extra argument`, args[at])
  if (form.options === undefined) {
    if (given > form.args.length) extra(form.args.length)
    return args
  }
  const example = `{ ${Object.keys(form.options).slice(0, 2).join(', ')} }`
  // The options object follows the required arguments; an optional positional before it (a number) may
  // be left out, so the first object after the required arguments is the options, whatever its kind.
  const required = form.args.filter((a) => a.optional !== true).length
  let at = -1
  for (let i = required; i < Math.min(given, form.args.length + 1); i++) {
    const value = args[i]
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      at = i
      break
    }
  }
  if (at < 0) {
    if (given > form.args.length) {
      matcherError(
        ctx,
        decl.name,
        hint,
        `the argument after ${form.args.map((a) => a.name).join(', ') || 'the received value'} must be an options object such as ${example}; ${decl.name} ${takes}`,
        args[form.args.length],
      )
    }
    return args
  }
  if (given > at + 1) extra(at + 1)
  const shape = optionsProblem(args[at])
  if (shape !== undefined) matcherError(ctx, decl.name, hint, isPlainObject(args[at]) ? shape.problem : `${shape.problem} such as ${example}`, args[at])
  const known = Object.keys(form.options)
  const options = args[at] as Record<string, unknown>
  const snapshot: Record<string, unknown> = {}
  for (const key of Object.keys(options)) {
    const spec = Object.prototype.hasOwnProperty.call(form.options, key) ? form.options[key] : undefined
    if (spec === undefined) matcherError(ctx, decl.name, hint, `${unknownKeyProblem(key, known)} (${decl.name} options: ${known.join(', ')})`, options)
    const v = options[key]
    if (v !== undefined && spec.check !== undefined && !spec.check(v)) matcherError(ctx, decl.name, hint, `options.${key} must be ${spec.type}`, v)
    snapshot[key] = v
  }
  const out = [...args]
  out[at] = snapshot
  return out
}

/** A core MetricInputError, thrown while computing, is misuse of the matcher: show it as a Matcher error. */
function asMatcherError(ctx: MatcherContext, decl: MatcherDeclaration, form: FormSpec, error: unknown): never {
  const name = (error as Error | undefined)?.name
  // By name too: the ESM and CJS copies of the core each have their own classes.
  if (name === 'MetricInputError') matcherError(ctx, decl.name, argsHint(form), (error as Error).message)
  throw error
}

/** The function handed to `expect.extend`: the declaration's checks, then `compute`. */
export function matcherOf(decl: MatcherDeclaration): MatcherImpl {
  const fn = function (this: MatcherContext, received: unknown, ...args: never[]): MatcherResult | Promise<MatcherResult> {
    const form = formFor(decl, received)
    if (decl.async) {
      return (async () => {
        const checked = checkCall(this, decl, form, args) as never[]
        try {
          return await decl.compute.call(this, received, ...checked)
        } catch (error) {
          return asMatcherError(this, decl, form, error)
        }
      })()
    }
    const checked = checkCall(this, decl, form, args) as never[]
    try {
      return decl.compute.call(this, received, ...checked) as MatcherResult
    } catch (error) {
      return asMatcherError(this, decl, form, error)
    }
  }
  Object.defineProperty(fn, 'name', { value: decl.name })
  return fn
}

/** Keeps the literal name type, so the type test can compare declared names with the typed signatures. */
export function declareMatcher<const N extends string>(decl: MatcherDeclaration<N>): MatcherDeclaration<N> {
  return decl
}

// ---------------------------------------------------------------- option checks shared by declarations

export const oneOf =
  (...values: readonly unknown[]) =>
  (v: unknown): boolean =>
    values.includes(v)
export const isBoolean = (v: unknown): boolean => typeof v === 'boolean'
export const isString = (v: unknown): boolean => typeof v === 'string'
export const isFiniteNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v)
export const isPositiveInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v > 0

/**
 * An input-size limit option (`maxTokens`, `maxNumbers`): a positive integer, or `Infinity` to turn the
 * limit off (src/generation/input-limits.ts).
 */
export const limitOption = (byDefault: string, doc: string): OptionSpec => ({
  type: 'a positive integer or Infinity',
  default: byDefault,
  doc,
  check: (v: unknown) => v === Number.POSITIVE_INFINITY || isPositiveInteger(v),
})
export const isInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v)
export const isFunction = (v: unknown): boolean => typeof v === 'function'
export const isArray = (v: unknown): boolean => Array.isArray(v)
