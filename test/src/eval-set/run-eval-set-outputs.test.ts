// Issue #27 (class 1): a case's outputs come only from its pipeline, never from the dataset item.
import { runEvalSet, OUTPUT_FIELDS } from '../../../src/eval-set/run-eval-set.js'
import { MetricInputError } from '../../../src/errors.js'
import { parseDataset } from '../../../src/eval-set/load-dataset.js'

const quiet = { progress: 'off' } as const

describe('runEvalSet: outputs come only from the pipeline', () => {
  it('names the output fields', () => {
    expect(OUTPUT_FIELDS).toEqual(['retrieved', 'answer', 'contexts'])
  })

  it.each(OUTPUT_FIELDS)('refuses an item with `%s` before calling the pipeline, naming the item and the field', async (field) => {
    let calls = 0
    const items = parseDataset(
      JSON.stringify([
        { id: 'a', question: 'A?' },
        { id: 7, question: 'B?', [field]: field === 'answer' ? 'left over' : ['c1'] },
      ]),
      { format: 'json' },
    )
    const error = await runEvalSet(items, () => {
      calls++
      return {}
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MetricInputError)
    expect((error as MetricInputError).argument).toBe(`item "7" (dataset[1]).${field}`)
    expect((error as Error).message).toMatch(new RegExp(`^runEvalSet: item "7" \\(dataset\\[1\\]\\) carries \`${field}\`, which is a pipeline output, not a dataset field`))
    expect(calls).toBe(0)
  })

  it('names an item without id by its position; an undefined field is not an output', async () => {
    await expect(runEvalSet([{ question: 'A?', answer: 'x' }], () => ({}), quiet)).rejects.toThrow(/^runEvalSet: dataset\[0\] carries `answer`/)
    const run = await runEvalSet([{ question: 'A?', answer: undefined }], () => ({ answer: 'from the pipeline' }), quiet)
    expect(run.cases[0]?.answer).toBe('from the pipeline')
  })

  it.each(['error', 'timing', 'attempts'])('refuses an item with `%s`, which runEvalSet sets', async (field) => {
    await expect(runEvalSet([{ id: 'q', question: 'A?', [field]: 1 }], () => ({}), quiet)).rejects.toThrow(
      `runEvalSet: item "q" (dataset[0]) carries \`${field}\`, which runEvalSet sets on each case`,
    )
  })

  it('a throwing pipeline, one returning {} and one timing out leave no output field; input fields stay', async () => {
    const run = await runEvalSet(
      [
        { id: 'throws', question: 'A?', reference: 'r', relevant: ['c1'] },
        { id: 'empty', question: 'B?', reference: 'r' },
        { id: 'hangs', question: 'C?', reference: 'r' },
        { id: 'fine', question: 'D?', reference: 'r' },
      ],
      (_q, item) => {
        if (item.id === 'throws') throw new Error('boom')
        if (item.id === 'empty') return {}
        if (item.id === 'hangs') return new Promise<never>(() => undefined)
        return { answer: 'ok', retrieved: ['c1'], contexts: ['c'] }
      },
      { ...quiet, timeoutMs: 50 },
    )
    for (const c of run.cases.slice(0, 3)) {
      expect(Object.keys(c).filter((k) => (OUTPUT_FIELDS as readonly string[]).includes(k))).toEqual([])
      expect(c.reference).toBe('r')
    }
    expect(run.cases[0]).toMatchObject({ error: { message: 'boom' }, relevant: ['c1'] })
    expect(run.cases[1]?.error).toBeUndefined()
    expect(run.cases[2]?.error).toMatchObject({ name: 'TimeoutError' })
    expect(run.cases[3]).toMatchObject({ answer: 'ok', retrieved: ['c1'], contexts: ['c'] })
  })
})
