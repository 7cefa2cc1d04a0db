import { validateJson } from '../../../src/judge/schema.js'
import type { JsonSchema } from '../../../src/judge/types.js'
import * as templates from '../../../src/judge/templates/index.js'

const verdicts: JsonSchema = {
  type: 'object',
  properties: {
    verdicts: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: { n: { type: 'integer', minimum: 1, maximum: 3 }, v: { type: 'string', enum: ['yes', 'no'] }, r: { type: ['string', 'null'], minLength: 2 } },
        required: ['n', 'v'],
        additionalProperties: false,
      },
    },
  },
  required: ['verdicts'],
  additionalProperties: false,
}

describe('validateJson', () => {
  it('accepts a conforming value', () => {
    expect(
      validateJson(verdicts, {
        verdicts: [
          { n: 1, v: 'yes', r: null },
          { n: 3, v: 'no', r: 'ok' },
        ],
      }),
    ).toEqual([])
  })

  it('reports each violation with its path', () => {
    const problems = validateJson(verdicts, {
      verdicts: [
        { n: 1.5, v: 'maybe', extra: 1 },
        { n: 4, r: 'x' },
      ],
      more: true,
    })
    expect(problems).toEqual([
      '$.verdicts[0].n: expected integer, got 1.5',
      '$.verdicts[0].v: expected one of "yes", "no", got "maybe"',
      '$.verdicts[0]: unexpected property `extra`',
      '$.verdicts[1]: missing required property `v`',
      '$.verdicts[1].n: expected ≤ 3, got 4',
      '$.verdicts[1].r: expected at least 2 characters',
      '$: unexpected property `more`',
    ])
  })

  it('checks array bounds and top-level types', () => {
    expect(validateJson(verdicts, { verdicts: [] })).toEqual(['$.verdicts: expected at least 1 items, got 0'])
    expect(validateJson(verdicts, [1])).toEqual(['$: expected object, got [1]'])
    expect(validateJson({ type: 'number' }, Number.NaN)).toEqual(['$: expected number, got NaN'])
    expect(validateJson({ type: 'array', maxItems: 1 }, [1, 2])).toEqual(['$: expected at most 1 items, got 2'])
  })

  it('refuses schema keywords outside the supported subset instead of ignoring them', () => {
    expect(() => validateJson({ type: 'string', pattern: '^a' } as JsonSchema, 'b')).toThrow('unsupported schema keyword `pattern`')
  })

  it('supports every keyword the shipped templates use', () => {
    for (const template of Object.values(templates)) {
      if (typeof template !== 'object' || template === null || !('steps' in template)) continue
      for (const s of Object.values(template.steps) as Array<{ schema: JsonSchema }>) {
        expect(() => validateJson(s.schema, {})).not.toThrow()
      }
    }
  })
})
