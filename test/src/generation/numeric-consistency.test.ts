import fc from 'fast-check'
import { MetricInputError } from '../../../src/errors.js'
import { type NumericConsistencyOptions, extractNumbers, numericConsistency } from '../../../src/generation/numeric-consistency.js'
import { maxWeightMatching } from '../../../src/generation/numbers/assignment.js'
import { parseNumberWords } from '../../../src/generation/numbers/number-words.js'

const BLEU_REF = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
const BLEU_WRONG = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'
const BLEU_PARAPHRASE = 'On WMT 2014 English-to-German, the big model scored 28.4 BLEU.'
const NNBSP = '\u202f'

interface Row {
  readonly name: string
  readonly reference: string
  readonly candidate: string
  readonly options?: NumericConsistencyOptions
  /** [reference raw, candidate raw] pairs. */
  readonly contradicted?: ReadonlyArray<readonly [string, string]>
  readonly omitted?: readonly string[]
  readonly added?: readonly string[]
}

// Expected sets follow the rules written in the doc comment of numericConsistency.
const ROWS: readonly Row[] = [
  // The motivating example and its paraphrase.
  { name: 'wrong BLEU in a well-phrased sentence', reference: BLEU_REF, candidate: BLEU_WRONG, contradicted: [['28.4', '41.0']] },
  { name: 'correct paraphrase of the BLEU sentence', reference: BLEU_REF, candidate: BLEU_PARAPHRASE },
  { name: 'paraphrase that drops the year', reference: BLEU_REF, candidate: 'The big model scored 28.4 BLEU on English-to-German.', omitted: ['2014'] },
  // Number words, variables and units.
  { name: '"h = 8" vs "eight heads"', reference: 'The Transformer uses h = 8 parallel attention heads.', candidate: 'The Transformer uses eight heads.' },
  { name: '"eight attention heads" vs "8 heads"', reference: 'Each layer has eight attention heads.', candidate: 'Each layer has 8 heads.' },
  { name: '"eight heads" vs "6 heads" contradicts', reference: 'Each layer has eight attention heads.', candidate: 'Each layer has 6 heads.', contradicted: [['eight', '6']] },
  { name: '512 vs "512-dimensional"', reference: 'The model dimension is 512.', candidate: 'It produces 512-dimensional outputs.' },
  { name: 'twenty-one vs 21', reference: 'The network has twenty-one layers.', candidate: 'The network has 21 layers.' },
  { name: '"a hundred" vs 100', reference: 'We annotated a hundred examples.', candidate: 'We annotated 100 examples.' },
  { name: '"one hundred and five" vs 105', reference: 'It ran for one hundred and five steps.', candidate: 'It ran for 105 steps.' },
  { name: '"1.5 million" vs "1,500,000"', reference: 'The model has 1.5 million parameters.', candidate: 'The model has 1,500,000 parameters.' },
  { name: '"7B" vs "7 billion"', reference: 'We fine-tune a 7B model.', candidate: 'We fine-tune a 7 billion parameter model.' },
  { name: '"$5 million" vs "5 million dollars"', reference: 'The project cost 5 million dollars.', candidate: 'The project cost $5 million.' },
  // Percentages.
  { name: '92.4% vs "92.4 percent"', reference: 'Accuracy reached 92.4%.', candidate: 'Accuracy reached 92.4 percent.' },
  { name: '"8 %" vs "8%"', reference: 'Error fell by 8 %.', candidate: 'Error fell by 8%.' },
  { name: 'percent vs its fraction', reference: 'Accuracy was 92.4%.', candidate: 'Accuracy was 0.924.' },
  { name: 'wrong percentage', reference: 'Top-1 accuracy is 92.4%.', candidate: 'Top-1 accuracy is 94.2%.', contradicted: [['92.4%', '94.2%']] },
  // Thousands separators.
  { name: '"1,000" vs 1000', reference: 'The corpus has 1,000 documents.', candidate: 'The corpus has 1000 documents.' },
  { name: '"$1,000.50" vs "1000.5 dollars"', reference: 'It cost $1,000.50.', candidate: 'It cost 1000.5 dollars.' },
  { name: 'narrow no-break space groups thousands', reference: `It saw 100${NNBSP}000 tokens.`, candidate: 'It saw 100,000 tokens.' },
  // Ranges.
  { name: '"10–20" vs "10 to 20"', reference: 'Training takes 10–20 epochs.', candidate: 'Training takes 10 to 20 epochs.' },
  { name: '"10-20" vs "between 10 and 20"', reference: 'Use a batch of 10-20 examples.', candidate: 'Use a batch of between 10 and 20 examples.' },
  { name: 'range with a wrong end', reference: 'Training takes 10–20 epochs.', candidate: 'Training takes 10–25 epochs.', contradicted: [['20', '25']] },
  { name: '"10–20 %" vs "10% to 20%"', reference: 'Latency grows by 10–20 %.', candidate: 'Latency grows by 10% to 20%.' },
  // Dates and years.
  { name: '"March 3, 2017" vs "2017-03-03"', reference: 'It was released on March 3, 2017.', candidate: 'It was released on 2017-03-03.' },
  { name: '"3 March 2017" vs "March 3, 2017"', reference: 'It was released on 3 March 2017.', candidate: 'It was released on March 3, 2017.' },
  { name: 'wrong day of a date', reference: 'It was released on March 3, 2017.', candidate: 'It was released on March 4, 2017.', contradicted: [['3', '4']] },
  { name: 'a year vs a full date with that year', reference: 'It was released in 2017.', candidate: 'It was released in March 2017.', added: ['March'] },
  { name: 'wrong year', reference: 'The dataset was released in 2017.', candidate: 'The dataset was released in 2018.', contradicted: [['2017', '2018']] },
  { name: 'years ignored', reference: 'Results on WMT 2014.', candidate: 'Results on WMT 2016.', options: { ignore: ['years'] } },
  // Versions are one token.
  { name: 'v2.6.0 vs "version 2.6"', reference: 'We used sacrebleu v2.6.0.', candidate: 'We used sacrebleu version 2.6.' },
  { name: 'Python 3.11 vs 3.1', reference: 'It requires Python 3.11.', candidate: 'It requires Python 3.1.', contradicted: [['3.11', '3.1']] },
  { name: 'versions ignored', reference: 'It requires Python 3.11.', candidate: 'It requires Python 3.12.', options: { ignore: ['versions'] } },
  // Vague quantities are not numbers.
  { name: '"a few" is not a number (candidate adds 3)', reference: 'The decoder has a few layers.', candidate: 'The decoder has 3 layers.', added: ['3'] },
  { name: '"a few" is not a number (candidate omits 3)', reference: 'The decoder has 3 layers.', candidate: 'The decoder has several layers.', omitted: ['3'] },
  { name: '"one of" is not a number', reference: 'One of the three models failed.', candidate: 'One of the 3 models failed.' },
  // Signs.
  { name: 'U+2212 minus vs hyphen minus', reference: 'The change was −0.5 BLEU.', candidate: 'The change was -0.5 BLEU.' },
  { name: 'dropped minus sign', reference: 'The change was −0.5 BLEU.', candidate: 'The change was 0.5 BLEU.', contradicted: [['−0.5', '0.5']] },
  { name: '"minus 3" vs "-3"', reference: 'The score moved by minus 3 points.', candidate: 'The score moved by -3 points.' },
  // Omitted, added, swapped, repeated.
  { name: 'a number omitted', reference: 'It was trained for 3.5 days on 8 GPUs.', candidate: 'It was trained on 8 GPUs.', omitted: ['3.5'] },
  { name: 'a number added', reference: 'It was trained on 8 GPUs.', candidate: 'It was trained on 8 GPUs with a batch size of 4096.', added: ['4096'] },
  {
    name: 'heads and layers swapped',
    reference: 'The model has 8 heads and 6 layers.',
    candidate: 'The model has 6 heads and 8 layers.',
    contradicted: [
      ['8', '6'],
      ['6', '8'],
    ],
  },
  {
    name: 'GPUs and days swapped',
    reference: 'We used 8 GPUs for 3 days.',
    candidate: 'We used 3 GPUs for 8 days.',
    contradicted: [
      ['8', '3'],
      ['3', '8'],
    ],
  },
  {
    name: 'accuracy and recall swapped',
    reference: 'Accuracy was 92% and recall was 80%.',
    candidate: 'Accuracy was 80% and recall was 92%.',
    contradicted: [
      ['92%', '80%'],
      ['80%', '92%'],
    ],
  },
  { name: 'repeated number stated once', reference: 'The encoder has 6 layers. The decoder has 6 layers.', candidate: 'The encoder and decoder each have 6 layers.' },
  {
    name: 'number stated once, repeated by the candidate',
    reference: 'The encoder and decoder each have 6 layers.',
    candidate: 'The encoder has 6 layers. The decoder has 6 layers.',
  },
  {
    name: 'repeated value, one occurrence changed',
    reference: 'The model has 8 heads and 8 layers.',
    candidate: 'The model has 8 heads and 6 layers.',
    contradicted: [['8', '6']],
  },
  { name: 'repeated value, one quantity dropped', reference: 'The model has 8 heads and 8 layers.', candidate: 'The model has 8 heads.', omitted: ['8'] },
  {
    name: 'value moved to another clause still aligns',
    reference: 'The model has 8 heads, each of dimension 64.',
    candidate: 'The model uses 64-dimensional heads, 8 of them.',
  },
  {
    name: 'metric names with cutoffs swapped',
    reference: 'MRR is 0.85 and Recall@10 is 0.62.',
    candidate: 'Recall@10 is 0.85 and MRR is 0.62.',
    contradicted: [
      ['0.85', '0.62'],
      ['0.62', '0.85'],
    ],
  },
  {
    name: 'scores swapped between datasets',
    reference: 'Accuracy of 92% on MNLI and 80% on SST.',
    candidate: 'Accuracy of 80% on MNLI and 92% on SST.',
    contradicted: [
      ['92%', '80%'],
      ['80%', '92%'],
    ],
  },
  {
    name: 'second result tied by the phrase after it',
    reference: 'The Transformer (big) achieves 28.4 BLEU on WMT 2014 English-to-German and 41.8 on English-to-French, after training for 3.5 days on eight P100 GPUs.',
    candidate: 'The big Transformer reaches 28.4 BLEU on English-German (WMT 2014) and 41.0 BLEU on English-French, training 3.5 days on 8 GPUs.',
    contradicted: [['41.8', '41.0']],
  },
  { name: 'start of a change contradicted', reference: 'BLEU rose from 26.3 to 28.4.', candidate: 'BLEU rose from 25.8 to 28.4.', contradicted: [['26.3', '25.8']] },
  {
    name: 'two results, one omitted',
    reference: 'The base model reached 27.3 BLEU and the big model 28.4 BLEU.',
    candidate: 'The base model reached 27.3 BLEU.',
    omitted: ['28.4'],
  },
  // An exact value wins over a contradiction, in either clause order (issue #26 item 9).
  {
    name: 'exact value in the second clause',
    reference: 'Enterprise tickets receive a first response within 1 hour.',
    candidate: 'Pro tickets receive a first response within 8 business hours and Enterprise tickets within 1 hour.',
    added: ['8'],
  },
  {
    name: 'exact value in the first clause',
    reference: 'Enterprise tickets receive a first response within 1 hour.',
    candidate: 'Enterprise tickets receive a first response within 1 hour and Pro tickets within 8 business hours.',
    added: ['8'],
  },
  {
    // The rule is per number, not per subject: Team's "4 hours" has an equal value with the same unit
    // in the answer (Pro's), so it is stated (repeated), not contradicted by Team's "8 hours".
    name: 'an equal value elsewhere wins over a contradiction even when its partner is taken',
    reference: 'Pro tickets get a reply within 4 hours. Team tickets get a reply within 4 hours.',
    candidate: 'Pro tickets get a reply within 4 hours and Team tickets within 8 hours.',
    added: ['8'],
  },
  // Names are not numbers.
  { name: 'WMT14 / GPT-4 / P100 are names', reference: 'We evaluate GPT-4 on WMT14 with 8 P100 GPUs.', candidate: 'We evaluate GPT-3 on WMT16 with 8 V100 GPUs.' },
  { name: 'decades are names', reference: 'Methods from the 1990s.', candidate: 'Methods from the 1980s.' },
  // Different units: not the same quantity, so omitted + added rather than contradicted.
  { name: 'days vs hours', reference: 'It trained for 3 days.', candidate: 'It trained for 72 hours.', omitted: ['3'], added: ['72'] },
  { name: 'same value, different noun still counts', reference: 'The model has 8 heads.', candidate: 'The model has 8 layers.' },
  { name: 'generic "points" vs "BLEU points"', reference: 'It improved by 2 BLEU points.', candidate: 'It improved by 2 points.' },
  // Scientific notation, ordinals.
  { name: '1e-3 vs 0.001', reference: 'The learning rate is 1e-3.', candidate: 'The learning rate is 0.001.' },
  { name: '1e-3 vs 1e-4', reference: 'The learning rate is 1e-3.', candidate: 'The learning rate is 1e-4.', contradicted: [['1e-3', '1e-4']] },
  { name: '3rd vs third', reference: 'The system ranked 3rd.', candidate: 'The system ranked third.' },
  { name: '3rd vs 5th', reference: 'The system ranked 3rd.', candidate: 'The system ranked 5th.', contradicted: [['3rd', '5th']] },
  { name: 'ordinals ignored', reference: 'The system ranked 3rd.', candidate: 'The system ranked 5th.', options: { ignore: ['ordinals'] } },
  { name: '"first"/"second" are not numbers', reference: 'First, the model is trained.', candidate: 'Second, the model is trained.' },
  // Tolerance and rounding.
  { name: '28.4 vs 28.40 are equal without tolerance', reference: 'It scored 28.4 BLEU.', candidate: 'It scored 28.40 BLEU.' },
  { name: '28.4 vs 28.5 without tolerance', reference: 'It scored 28.4 BLEU.', candidate: 'It scored 28.5 BLEU.', contradicted: [['28.4', '28.5']] },
  { name: '28.4 vs 28.5 with 1% tolerance', reference: 'It scored 28.4 BLEU.', candidate: 'It scored 28.5 BLEU.', options: { relativeTolerance: 0.01 } },
  { name: '28.43 vs 28.4 without rounding', reference: 'It scored 28.43 BLEU.', candidate: 'It scored 28.4 BLEU.', contradicted: [['28.43', '28.4']] },
  { name: '28.43 vs 28.4 with rounding', reference: 'It scored 28.43 BLEU.', candidate: 'It scored 28.4 BLEU.', options: { rounding: true } },
  {
    name: '28.46 vs 28.4 with rounding',
    reference: 'It scored 28.46 BLEU.',
    candidate: 'It scored 28.4 BLEU.',
    options: { rounding: true },
    contradicted: [['28.46', '28.4']],
  },
  // Degenerate inputs.
  { name: 'reference without numbers', reference: 'The model works well.', candidate: 'It scored 28.4.', added: ['28.4'] },
  { name: 'empty candidate', reference: 'It has 8 heads.', candidate: '', omitted: ['8'] },
]

const sorted = (xs: readonly string[]): string[] => [...xs].sort()

describe('numericConsistency: hand-written table', () => {
  it('has at least 40 cases', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40)
  })

  it.each(ROWS.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    const s = numericConsistency(row.candidate, row.reference, row.options)
    const d = s.details
    const contradicted = d.contradicted.map((c) => [c.reference.raw, c.candidate.raw] as const)
    expect(contradicted).toEqual(row.contradicted ?? [])
    expect(sorted(d.omitted.map((m) => m.raw))).toEqual(sorted(row.omitted ?? []))
    expect(sorted(d.added.map((m) => m.raw))).toEqual(sorted(row.added ?? []))
    // Value and verdict follow from the sets.
    const bad = (row.contradicted?.length ?? 0) + (row.omitted?.length ?? 0)
    expect(d.total).toBe(d.referenceNumbers.length)
    expect(d.stated).toBe(d.total - bad)
    expect(s.value).toBe(d.total === 0 ? 1 : (d.total - bad) / d.total)
    expect(d.consistent).toBe(bad === 0)
    // Every reference number lands in exactly one bucket.
    const seen = [...new Set(d.matched.map((m) => m.reference)), ...d.contradicted.map((c) => c.reference), ...d.omitted]
    expect(new Set(seen).size).toBe(d.referenceNumbers.length)
    expect(seen.length).toBe(d.referenceNumbers.length)
  })

  it('explains the BLEU contradiction with the shared context words', () => {
    const s = numericConsistency(BLEU_WRONG, BLEU_REF)
    expect(s.metric).toBe('NumCheck')
    expect(s.value).toBe(0.5)
    const [c] = s.details.contradicted
    expect(c?.context).toEqual(expect.arrayContaining(['bleu', 'score']))
    expect(s.details.matched.map((m) => [m.reference.raw, m.candidate.raw, m.via])).toEqual([['2014', '2014', 'aligned']])
  })

  it('matches the doc examples', () => {
    expect(numericConsistency(BLEU_WRONG, BLEU_REF).details.contradicted.map((c) => [c.reference.raw, c.candidate.raw])).toEqual([['28.4', '41.0']])
    expect(extractNumbers('The big model scored 28.4 BLEU with 8 heads.').map((m) => [m.canonical, m.unitWords])).toEqual([
      ['28.4', ['bleu']],
      ['8', ['head']],
    ])
  })

  it('reports a reason when the reference has no numbers', () => {
    const s = numericConsistency('It scored 28.4.', 'The model works well.')
    expect(s.value).toBe(1)
    expect(s.details.reason).toMatch(/no numbers/)
  })

  it('marks repeated facts as such', () => {
    const s = numericConsistency('The encoder and decoder each have 6 layers.', 'The encoder has 6 layers. The decoder has 6 layers.')
    expect(s.details.matched.map((m) => m.via).sort()).toEqual(['aligned', 'repeated'])
  })
})

describe('numericConsistency: signature and arguments', () => {
  it('records every setting', () => {
    expect(numericConsistency('1', '1').signature).toBe('NumCheck|units:yes|words:yes|tol:0|round:no|ignore:none|version:0.1.0')
    const s = numericConsistency('1', '1', { units: false, words: false, relativeTolerance: 0.01, rounding: true, ignore: ['versions', 'years'] })
    expect(s.signature).toBe('NumCheck|units:no|words:no|tol:0.01|round:yes|ignore:years,versions|version:0.1.0')
  })

  it('words: false leaves number words alone', () => {
    const s = numericConsistency('Each layer has 8 heads.', 'Each layer has eight heads.', { words: false })
    expect(s.details.referenceNumbers).toEqual([])
    expect(s.details.added.map((m) => m.raw)).toEqual(['8'])
  })

  it('units: false stops units from separating quantities', () => {
    const withUnits = numericConsistency('It trained for 72 hours.', 'It trained for 3 days.')
    expect(withUnits.details.contradicted).toEqual([])
    const without = numericConsistency('It trained for 72 hours.', 'It trained for 3 days.', { units: false })
    expect(without.details.contradicted.map((c) => [c.reference.raw, c.candidate.raw])).toEqual([['3', '72']])
  })

  it.each([
    [() => numericConsistency(1 as unknown as string, 'x'), /Expected `candidate` to be a string/],
    [() => numericConsistency('x', null as unknown as string), /Expected `reference` to be a string/],
    [() => numericConsistency('x', 'y', { relativeTolerance: -0.1 }), /`options.relativeTolerance` to be a number in \[0, 1\)/],
    [() => numericConsistency('x', 'y', { relativeTolerance: 1 }), /`options.relativeTolerance`/],
    [() => numericConsistency('x', 'y', { rounding: 'yes' as unknown as boolean }), /`options.rounding` to be a boolean/],
    [() => numericConsistency('x', 'y', { units: 1 as unknown as boolean }), /`options.units` to be a boolean/],
    [() => numericConsistency('x', 'y', { words: null as unknown as boolean }), /`options.words` to be a boolean/],
    [() => numericConsistency('x', 'y', { ignore: ['months'] as unknown as ['years'] }), /`options.ignore`/],
    [() => numericConsistency('x', 'y', 'fast' as unknown as NumericConsistencyOptions), /`options` to be an options object/],
    [() => extractNumbers(undefined as unknown as string), /extractNumbers: Expected `text` to be a string/],
  ])('rejects bad arguments (%#)', (call, message) => {
    expect(call).toThrow(MetricInputError)
    expect(call).toThrow(message)
  })
})

describe('extractNumbers', () => {
  const one = (text: string) => {
    const ms = extractNumbers(text)
    expect(ms).toHaveLength(1)
    return ms[0]!
  }

  it.each([
    ['28.40', '28.4', 'decimal', -2],
    ['1,000.50', '1000.5', 'decimal', -2],
    [`100${NNBSP}000`, '100000', 'integer', 0],
    ['−3', '-3', 'integer', 0],
    ['+2.5', '2.5', 'decimal', -1],
    ['.5', '0.5', 'decimal', -1],
    ['1e-3', '0.001', 'scientific', -3],
    ['3 × 10^5', '300000', 'scientific', 5],
    ['10^-3', '0.001', 'scientific', -3],
    ['92.4 %', '92.4', 'percent', -1],
    ['1.5 million', '1500000', 'decimal', 5],
    ['10k', '10000', 'integer', 3],
    ['7B', '7000000000', 'integer', 9],
    ['3rd', '3', 'ordinal', 0],
    ['twenty-first', '21', 'ordinal', 0],
    ['nine hundred ninety-nine thousand', '999000', 'integer', 0],
    ['a million', '1000000', 'integer', 0],
    ['v2.6.0', '2.6', 'version', 0],
    ['3.11.4', '3.11.4', 'version', 0],
  ])('reads %s', (text, canonical, kind, precision) => {
    const m = one(text)
    expect([m.canonical, m.kind, m.precision]).toEqual([canonical, kind, precision])
    expect(text.slice(m.start, m.end)).toBe(m.raw)
  })

  it.each([
    ['8GB of memory', 'gb', []],
    ['100ms latency', 'ms', ['latency']],
    ['2× faster', 'times', ['faster']],
    ['$5', 'dollar', []],
    ['5 per cent', 'percent', []],
    ['3 percentage points', 'pp', []],
    ['8 parallel attention heads', null, ['parallel', 'attention', 'head']],
    ['512-dimensional keys', null, ['dimensional', 'key']],
  ])('attaches units in %s', (text, unit, words) => {
    const m = one(text)
    expect(m.unit).toBe(unit)
    expect(m.unitWords).toEqual(words)
  })

  it('treats a version as one token, never several numbers', () => {
    expect(extractNumbers('Install v2.6.0 or Python 3.11 or version 2.').map((m) => [m.raw, m.kind])).toEqual([
      ['v2.6.0', 'version'],
      ['3.11', 'version'],
      ['2', 'version'],
    ])
  })

  it('splits dates into parts and keeps bare years as years', () => {
    expect(extractNumbers('On March 3, 2017 at WMT 2014.').map((m) => [m.raw, m.kind, m.datePart ?? null, m.value])).toEqual([
      ['March', 'date', 'month', 3],
      ['3', 'date', 'day', 3],
      ['2017', 'date', 'year', 2017],
      ['2014', 'year', null, 2014],
    ])
    expect(extractNumbers('It saw 2048 tokens.').map((m) => m.kind)).toEqual(['integer'])
    expect(extractNumbers('It was mid-2017.').map((m) => [m.raw, m.kind])).toEqual([['2017', 'year']])
  })

  it('marks range endpoints and shares the unit', () => {
    const ms = extractNumbers('Use 10–20 % of the data.')
    expect(ms.map((m) => [m.raw, m.kind, m.range])).toEqual([
      ['10', 'percent', { role: 'start', partner: 1 }],
      ['20 %', 'percent', { role: 'end', partner: 0 }],
    ])
  })

  it('describes a number by the words before it and a prepositional phrase after it', () => {
    const [bleu, year, fr] = extractNumbers('It gets 28.4 on the WMT 2014 task and 41.8 on English-to-French.')
    // "WMT" leads into 2014, so it labels 2014, not 28.4.
    expect(bleu?.context).toEqual([])
    expect(year?.context).toEqual(['wmt'])
    expect(fr?.context).toEqual(['task', 'english-to-french'])
  })

  it('skips names, vague quantities and pronoun "one"', () => {
    const text = 'WMT14, GPT-4, ResNet-50, P100, V100, x86, 3D, 1080p, nDCG@10, the 1990s, a few, several, dozens, hundreds of, one of them, the one that, one-hot.'
    expect(extractNumbers(text)).toEqual([])
    expect(extractNumbers('Only one GPU was used.').map((m) => m.value)).toEqual([1])
  })

  it('does not group thousands with an ordinary space or malformed commas', () => {
    expect(extractNumbers('sizes 64 128 256').map((m) => m.value)).toEqual([64, 128, 256])
    expect(extractNumbers('3,14 and 1,0001').map((m) => m.value)).toEqual([3, 14, 1, 1])
  })

  it('honours ignore', () => {
    const text = 'On March 3, 2017 we ranked 3rd with v2 in 2018.'
    expect(extractNumbers(text, { ignore: ['dates'] }).map((m) => m.raw)).toEqual(['3rd', 'v2', '2018'])
    expect(extractNumbers(text, { ignore: ['years'] }).map((m) => m.raw)).toEqual(['March', '3', '3rd', 'v2'])
    expect(extractNumbers(text, { ignore: ['ordinals', 'versions'] }).map((m) => m.raw)).toEqual(['March', '3', '2017', '2018'])
  })
})

describe('number words', () => {
  it.each([
    ['zero', 0n],
    ['fifteen hundred', 1500n],
    ['one million two thousand and three', 1_002_003n],
    ['ninety-nine', 99n],
  ])('%s', (text, value) => {
    expect(parseNumberWords(text, 0)?.value).toBe(value)
  })

  it.each(['hundred', 'a few', 'first', 'second', 'thousand million', 'tenfold'])('%s is not a number phrase', (text) => {
    const m = parseNumberWords(text, 0)
    // "thousand million" has no leading group; the others never start a phrase.
    expect(m).toBeNull()
  })

  it('stops before an invalid continuation', () => {
    expect(parseNumberWords('two three', 0)).toMatchObject({ value: 2n, end: 3 })
    expect(parseNumberWords('one hundred and cats', 0)).toMatchObject({ value: 100n, end: 11 })
  })
})

describe('maxWeightMatching', () => {
  it('finds the optimum where greedy would not', () => {
    // Greedy takes (0,0)=5 and is left with (1,1)=0; the optimum is (0,1)+(1,0) = 4+4.
    expect(
      maxWeightMatching([
        [5, 4],
        [4, 0],
      ]),
    ).toEqual([
      [0, 1],
      [1, 0],
    ])
  })

  it('drops zero-weight pairs and handles more rows than columns', () => {
    expect(maxWeightMatching([[0], [3], [2]])).toEqual([[1, 0]])
    expect(maxWeightMatching([])).toEqual([])
  })

  it('agrees with brute force on small random matrices', () => {
    const matrix = fc
      .integer({ min: 1, max: 4 })
      .chain((n) =>
        fc.integer({ min: 1, max: 4 }).chain((m) => fc.array(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: m, maxLength: m }), { minLength: n, maxLength: n })),
      )
    fc.assert(
      fc.property(matrix, (w) => {
        const got = maxWeightMatching(w).reduce((s, [i, j]) => s + (w[i]![j] as number), 0)
        expect(got).toBe(bruteForce(w, 0, new Set()))
      }),
      { numRuns: 300 },
    )
  })
})

function bruteForce(w: number[][], row: number, used: Set<number>): number {
  if (row === w.length) return 0
  let best = bruteForce(w, row + 1, used)
  w[row]!.forEach((x, j) => {
    if (used.has(j) || x === 0) return
    used.add(j)
    best = Math.max(best, x + bruteForce(w, row + 1, used))
    used.delete(j)
  })
  return best
}

describe('numericConsistency: properties', () => {
  const NOUNS = ['heads', 'layers', 'GPUs', 'days', 'tokens', 'BLEU', 'accuracy', 'model', 'examples', 'epochs']
  const VERBS = ['has', 'reached', 'uses', 'scored', 'took', 'trained']
  const number = fc.oneof(
    fc.integer({ min: 0, max: 100_000 }).map(String),
    fc.integer({ min: 0, max: 10_000 }).map((n) => (n / 100).toFixed(2)),
    fc.integer({ min: 0, max: 1000 }).map((n) => `${n / 10}%`),
    fc.integer({ min: -50, max: -1 }).map((n) => `−${-n}`),
    fc.integer({ min: 1000, max: 999_999 }).map((n) => n.toLocaleString('en-US')),
    fc.constantFrom(
      'eight',
      'twenty-one',
      'a hundred',
      'three thousand',
      'third',
      'v2.6.0',
      'Python 3.11',
      '1e-3',
      'March 3, 2017',
      '2017-06-12',
      'WMT 2014',
      '10–20',
      '5 to 7',
      'GPT-4',
      'a few',
    ),
  )
  const word = fc.constantFrom(...NOUNS, ...VERBS, 'the', 'of', 'and', 'with', 'big', 'base')
  const sentence = fc
    .tuple(
      fc.constantFrom('The', 'Our', 'Each'),
      fc.array(
        fc.oneof(
          word,
          number,
          fc.tuple(number, fc.constantFrom(...NOUNS)).map(([n, u]) => `${n} ${u}`),
        ),
        { minLength: 1, maxLength: 8 },
      ),
    )
    .map(([first, rest]) => `${first} ${rest.join(' ')}.`)
  const text = fc.array(sentence, { minLength: 1, maxLength: 4 }).map((s) => s.join(' '))

  it('a text is always consistent with itself', () => {
    fc.assert(
      fc.property(text, (t) => {
        const d = numericConsistency(t, t).details
        expect(d.contradicted).toEqual([])
        expect(d.omitted).toEqual([])
        expect(d.added).toEqual([])
        expect(d.consistent).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('adding a sentence with new numbers only adds, never contradicts', () => {
    const extra = fc
      // Three decimals: a value the generated texts never contain.
      .array(fc.tuple(fc.constantFrom(...VERBS), fc.integer({ min: 1, max: 999 }), fc.constantFrom(...NOUNS)), { minLength: 1, maxLength: 3 })
      .map((parts) => `It ${parts.map(([v, n, u]) => `${v} ${n}.375 ${u}`).join(' and ')}.`)
    fc.assert(
      fc.property(text, extra, (t, e) => {
        const s = numericConsistency(`${t} ${e}`, t)
        const d = s.details
        expect(d.contradicted).toEqual([])
        expect(d.omitted).toEqual([])
        expect(s.value).toBe(1)
        // Every number of the new sentence is reported as added (its values are new).
        const extraStart = t.length + 1
        const fromExtra = d.candidateNumbers.filter((m) => m.start >= extraStart)
        expect(fromExtra.length).toBeGreaterThan(0)
        expect(d.added).toEqual(fromExtra)
      }),
      { numRuns: 300 },
    )
  })
})
