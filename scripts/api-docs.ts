/**
 * Renders docs/api.md from the matcher declarations (matchers/all.ts): one section per matcher with
 * its received forms, arguments, options, metric and scale, an example and a real failure message
 * (the declaration's `failing` input run through the matcher). `npm run docs:api` rewrites the file;
 * test/docs/api-docs.test.ts fails when the committed file differs from what this renders.
 */
import { matcherHint, printExpected, printReceived } from 'jest-matcher-utils'
import { matcherDeclarations } from '../matchers/all.js'
import { resetConfig } from '../matchers/config.js'
import type { MatcherContext, MatcherResult } from '../matchers/context.js'
import { turnNeedsText } from '../matchers/conversation-turns.js'
import { argsHint, declaredScale, formFor, matcherOf, type FormSpec, type MatcherDeclaration } from '../matchers/declare.js'

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '')

function context(isNot: boolean): MatcherContext {
  return { isNot, promise: '', utils: { matcherHint, printReceived, printExpected } }
}

function scaleText(decl: MatcherDeclaration): string {
  const scale = declaredScale(decl.metric)
  const range = scale === 100 ? '0–100' : scale === 2 ? '−1…1' : '0–1'
  const better = decl.metric.direction === 'higher' ? 'higher is better' : 'lower is better'
  return `${decl.metric.name}, ${range}, ${better}; passes when the value is ${{ '>=': '≥', '<': '<', '<=': '≤' }[decl.metric.comparator]} the threshold (\`.not\` flips it)`
}

const cell = (text: string): string => text.replace(/\|/g, '\\|')

function formSection(decl: MatcherDeclaration, form: FormSpec, received = form.received): string {
  const call = `expect(received).${decl.name}(${[...form.args.map((a) => (a.optional ? `${a.name}?` : a.name)), ...(form.options ? [form.optionsRequired ? 'options' : 'options?'] : [])].join(', ')})`
  const lines = [`**Received:** ${received}`, '', '```ts', call, '```', '']
  if (form.args.length > 0) {
    lines.push('| argument | type | meaning |', '| --- | --- | --- |')
    for (const a of form.args) lines.push(`| \`${a.name}\`${a.optional ? ' (optional)' : ''} | \`${cell(a.type)}\` | ${cell(a.doc)} |`)
    lines.push('')
  }
  if (form.options !== undefined) {
    lines.push('| option | type | default | meaning |', '| --- | --- | --- | --- |')
    for (const [key, o] of Object.entries(form.options))
      lines.push(`| \`${key}\` | ${cell(o.type)} | ${o.default === undefined ? '—' : `\`${cell(o.default)}\``} | ${cell(o.doc)} |`)
    lines.push('')
  } else {
    lines.push('No options.', '')
  }
  return lines.join('\n')
}

async function failureMessage(decl: MatcherDeclaration): Promise<string | undefined> {
  const failing = decl.failing ?? (decl.family === 'judge' ? judgeFailing(decl) : undefined)
  if (failing === undefined) return undefined
  resetConfig()
  const fn = matcherOf(decl)
  const result = (await fn.call(context(failing.not === true), failing.received, ...(failing.args as never[]))) as MatcherResult
  if (result.pass !== (failing.not === true)) throw new Error(`docs: the failing example of ${decl.name} passes`)
  return stripAnsi(result.message())
}

/** With no judge configured a judge matcher fails, with or without `.not`: a real message every reader meets first. */
function judgeFailing(decl: MatcherDeclaration): { received: unknown; args: unknown[] } {
  // The single-answer form (the eval-set form, listed first, has a `when` test on the received value).
  const form = (decl.forms.find((f) => f.when === undefined) ?? decl.forms[0]) as FormSpec
  const sample: Record<string, unknown> = {
    contexts: ['Paris is the capital of France.'],
    source: { reference: 'Paris, on the Seine.' },
    reference: 'Paris is the capital of France.',
    question: 'What is the capital of France?',
    rubric: 'Cites its sources.',
    otherAnswer: 'Lyon.',
    min: 0.8,
  }
  const args: unknown[] = form.args.filter((a) => !a.optional).map((a) => sample[a.name])
  if (decl.name === 'toBePreferredOver') args.push({ question: 'What is the capital of France?' })
  const received = decl.name === 'toHaveContextRecall' ? ['Paris is the capital of France.'] : 'Paris.'
  return { received, args }
}

export async function renderApiDocs(): Promise<string> {
  const out = [
    '# API reference: matchers',
    '',
    '<!-- Generated from the matcher declarations (matchers/*.ts) by `npm run docs:api`; do not edit by hand. -->',
    '',
    'Every matcher is strict: an unknown option key, a wrongly typed option or an extra argument is a',
    '`Matcher error` naming the matcher, the argument and the nearest valid key, with or without `.not`.',
    'Async matchers must be awaited.',
    '',
    '**The one rule.** An assertion either computes a finite value on valid input, or fails with a message that',
    'says why; `.not` never passes on input the positive form rejects. An empty ground truth, a blank reference,',
    'a hole in an eval set, a non-finite value, a judge that cannot judge or a cache entry that does not match its',
    'request is a failure, never a pass and never NaN. Vacuous input is accepted only where an option says so',
    "(`allowEmptyRelevant`, `empty: 'pass'`, `requireNumbers: false`).",
    '',
  ]
  const families = [...new Set(matcherDeclarations.map((d) => d.family))]
  out.push('| matcher | family | sync/async | metric |', '| --- | --- | --- | --- |')
  for (const d of matcherDeclarations) out.push(`| [\`${d.name}\`](#${d.name.toLowerCase()}) | ${d.family} | ${d.async ? 'async' : 'sync'} | ${d.metric.name} |`)
  out.push('')
  for (const family of families) {
    out.push(`## ${family}`, '')
    for (const decl of matcherDeclarations.filter((d) => d.family === family)) {
      out.push(`### ${decl.name}`, '', decl.summary, '', `**Metric:** ${scaleText(decl)}. ${decl.async ? '**Async**: `await` it.' : 'Sync.'}`, '')
      // Forms that differ only in what they receive are shown once.
      const shape = (f: FormSpec) => JSON.stringify([f.args.map((a) => a.name), Object.keys(f.options ?? {})])
      const shown = new Set<string>()
      for (const form of decl.forms) {
        if (shown.has(shape(form))) continue
        shown.add(shape(form))
        const received = decl.forms.filter((f) => shape(f) === shape(form)).map((f) => f.received)
        out.push(formSection(decl, form, received.join('; or ')))
      }
      const turns = turnNeedsText(decl.name)
      if (turns !== undefined) {
        out.push(
          `**Conversations:** a conversation \`{ turns }\` (received alone or as a case of an eval set) is scored turn by turn, each turn a case named \`<id> turn <n>\` with the eval-set form's arguments; every turn needs ${turns}, else a Matcher error names the turn (docs/conversations.md).`,
          '',
        )
      }
      out.push('**Example**', '', '```ts', decl.example, '```', '')
      const message = await failureMessage(decl)
      if (message !== undefined) {
        const form = formFor(decl, decl.failing?.received)
        out.push(`**A failure message** (${argsHint(form) === '' ? 'no arguments' : argsHint(form)}):`, '', '```text', message, '```', '')
      }
    }
  }
  return `${out.join('\n').trimEnd()}\n`
}
