import { describe, expect, it } from 'vitest'
import { MetricInputError } from '../../../src/errors.js'
import { checkCorpusArgs } from '../../../src/generation/sacrebleu-args.js'

describe('checkCorpusArgs', () => {
  it('reads each segment from the streams when there is no null', () => {
    const refs = checkCorpusArgs(
      'f',
      ['a', 'b'],
      [
        ['r1', 'r2'],
        ['s1', 's2'],
      ],
    )
    expect(refs.length).toBe(2)
    expect(refs.nrefs).toBe(2)
    expect(refs.refs(1)).toEqual(['r2', 's2'])
    expect(refs.stream(1, 1)).toBe(1)
    // a fresh array each time: a caller may keep it
    expect(refs.refs(0)).not.toBe(refs.refs(0))
  })

  it('drops null entries, keeps the stream index of what is left, and counts nrefs after dropping', () => {
    const refs = checkCorpusArgs(
      'f',
      ['a', 'b'],
      [
        ['r1', null],
        [null, 's2'],
      ],
    )
    expect(refs.refs(0)).toEqual(['r1'])
    expect(refs.refs(1)).toEqual(['s2'])
    expect(refs.stream(1, 0)).toBe(1)
    expect(refs.nrefs).toBe(1)
    expect(
      checkCorpusArgs(
        'f',
        ['a', 'b'],
        [
          ['r1', 'r2'],
          [null, 's2'],
        ],
      ).nrefs,
    ).toBe('var')
  })

  it('names the segment left without a reference, the hole, and the wrong entry', () => {
    expect(() =>
      checkCorpusArgs(
        'f',
        ['a', 'b'],
        [
          ['r1', null],
          ['s1', null],
        ],
      ),
    ).toThrow(/referenceStreams\[\*\]\[1\].*at least one non-null reference/)
    // eslint-disable-next-line no-sparse-arrays
    expect(() => checkCorpusArgs('f', ['a', 'b'], [['r1', ,]])).toThrow(MetricInputError)
    expect(() =>
      checkCorpusArgs(
        'f',
        ['a', 'b'],
        [
          ['r1', 'r2'],
          ['s1', 3],
        ],
      ),
    ).toThrow(/referenceStreams\[1\]\[1\].*a string or null/)
    expect(() => checkCorpusArgs('f', ['a', 'b'], [['r1']])).toThrow(/referenceStreams\[0\].*an array of 2 entries/)
  })
})
