import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeCache } from '../../../src/judge/cache.js'
import { functionJudge, type FunctionJudgeRequest } from '../../../src/judge/function-judge.js'
import { groundedness } from '../../../src/judge/metrics/groundedness.js'
import type { JsonSchema, JudgeRequest } from '../../../src/judge/types.js'

const schema: JsonSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false }
const request = (prompt = 'Is it?'): JudgeRequest => ({ template: 'test.step@00000000', system: 'You judge.', prompt, schema, seed: 5 })

describe('functionJudge', () => {
  it('passes the conversation, schema and settings to the function and validates what it returns', async () => {
    const seen: FunctionJudgeRequest[] = []
    const judge = functionJudge(
      async (req) => {
        seen.push(req)
        return { ok: true }
      },
      { id: 'my-sdk', model: 'gpt-4o-mini', temperature: 0.2 },
    )
    expect(judge).toMatchObject({ id: 'function:my-sdk', model: 'gpt-4o-mini', temperature: 0.2, seed: 42 })
    expect(await judge.ask(request())).toMatchObject({ value: { ok: true }, raw: '{"ok":true}', attempts: 1, seed: 5 })
    expect(seen[0]).toMatchObject({
      messages: [
        { role: 'system', content: 'You judge.' },
        { role: 'user', content: 'Is it?' },
      ],
      schema,
      schemaName: 'test_step_00000000',
      template: 'test.step@00000000',
      model: 'gpt-4o-mini',
      temperature: 0.2,
      seed: 5,
      attempt: 1,
    })
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal)
    expect(judge.signatureExtras).toEqual([
      ['backend', 'function'],
      ['fn', 'my-sdk'],
    ])
  })

  it('retries a reply that fails the schema, showing the function its reply and the problems; accepts JSON text', async () => {
    const replies: unknown[] = [{ ok: 'yes' }, '{"ok": false}']
    const seen: FunctionJudgeRequest[] = []
    const judge = functionJudge((req) => (seen.push(req), replies.shift()), { id: 'f', model: 'm' })
    expect(await judge.ask(request())).toMatchObject({ value: { ok: false }, attempts: 2 })
    expect(seen[1]!.attempt).toBe(2)
    expect(seen[1]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(seen[1]!.messages[3]!.content).toContain('$.ok: expected boolean')
  })

  it('a function that throws fails naming it; one that never settles times out naming it', async () => {
    const throwing = functionJudge(
      () => {
        throw new Error('quota exceeded')
      },
      { id: 'ai-sdk:openai', model: 'gpt-4o-mini' },
    )
    await expect(throwing.ask(request())).rejects.toMatchObject({ kind: 'function', message: 'judge function ai-sdk:openai (model gpt-4o-mini) threw: quota exceeded' })
    let aborted = false
    const hanging = functionJudge(
      ({ signal }) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (aborted = true))
        }),
      { id: 'ai-sdk:openai', model: 'gpt-4o-mini', timeoutMs: 80 },
    )
    const started = Date.now()
    const error = await hanging.ask(request()).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'timeout' })
    expect((error as Error).message).toContain('judge function ai-sdk:openai did not answer within 80 ms (model gpt-4o-mini)')
    expect(aborted).toBe(true)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('caches keyed on its id, and signs metrics with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-function-judge-'))
    try {
      let calls = 0
      const make = (id: string) =>
        functionJudge(
          () => {
            calls++
            return { ok: true }
          },
          { id, model: 'm', cache: judgeCache({ dir }) },
        )
      await make('a').ask(request())
      expect((await make('a').ask(request())).cached).toBe(true)
      expect((await make('b').ask(request())).cached).toBe(false)
      expect(calls).toBe(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    const judge = functionJudge(
      ({ schema: s }) =>
        'claims' in (s.properties ?? {}) ? { claims: ['Paris is in France.'] } : { verdicts: [{ claim: 1, reason: 'Passage 1.', verdict: 'supported', context: 1 }] },
      { id: 'scripted', model: 'm' },
    )
    const score = await groundedness('Paris is in France.', ['Paris is a city in France.'], judge)
    expect(score.value).toBe(1)
    expect(score.signature).toContain('|model:m|temp:0|seed:42|backend:function|fn:scripted|')
  })

  it('rejects bad arguments', () => {
    expect(() => functionJudge('x' as never, { id: 'a', model: 'm' })).toThrow('Expected `fn` to be an async function')
    expect(() => functionJudge(() => ({}), { id: '', model: 'm' })).toThrow('Expected `id` to be a non-empty name')
    expect(() => functionJudge(() => ({}), { id: 'a', model: '' })).toThrow('Expected `model` to be a non-empty model name')
    expect(() => functionJudge(() => ({}), { id: 'a', model: 'm', extra: 1 } as never)).toThrow(/extra/)
  })
})
