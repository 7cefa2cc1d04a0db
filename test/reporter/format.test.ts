// The terminal table and the HTML page, on hand-made reports: content, escaping, the CSP.
import { escapeHtml, renderChart, renderHtml, REPORT_CSP } from '../../src/report/html.js'
import { buildReport, type ReportAssertion } from '../../src/report/model.js'
import { formatDelta, renderTable } from '../../src/report/table.js'
import { assertionMaker } from './assertions.js'

const INJECTED_ANSWER = '<script>window.__pwned=1</script>'
const INJECTED_ATTR = '"><img src=x onerror="window.__pwned=2">'

const a = assertionMaker({ describe: ['retrieval'], test: 'set-level', fullName: 'retrieval > set-level' })

function evalSet(over: Partial<ReportAssertion> = {}): ReportAssertion {
  return a({
    value: 0.5,
    setSize: 4,
    perCase: [
      { id: 'q1', value: 1, pass: true },
      { id: 'q2', value: 0, pass: false },
      { id: 'q3', value: 1, pass: true },
      { id: 'q4', value: 0, pass: false },
    ],
    cases: [
      { id: 'q1', question: 'What is one?', answer: 'One.', reference: 'One.', retrieved: ['d1', 'd2'] },
      { id: 'q2', question: 'What is two?', answer: 'Two.', reference: 'Two.', retrieved: ['d3'] },
      { id: 'q3', question: 'What is three?', answer: 'Three.' },
      { id: 'q4', question: 'What is four?', answer: 'Four.' },
    ],
    ...over,
  })
}

describe('renderTable', () => {
  it('prints nothing for a run without rag-matchers assertions', () => {
    expect(renderTable(buildReport([], { runner: 'vitest' }))).toBe('')
  })

  it('prints a metric table per eval set with the failing cases underneath, then single assertions per file', () => {
    const text = renderTable(
      buildReport(
        [
          evalSet(),
          a({
            file: 'test/b.test.ts',
            describe: [],
            test: 'one',
            fullName: 'one',
            matcher: 'toHitWithin',
            metric: 'HitRate@3',
            value: 0,
            threshold: 1,
            pass: false,
            outcome: false,
          }),
          a({
            file: 'test/b.test.ts',
            describe: [],
            test: 'two',
            fullName: 'two',
            metric: 'P@3',
            value: 0.3333333,
            threshold: 0.9,
            comparator: '<',
            isNot: true,
            pass: false,
            outcome: true,
          }),
        ],
        { runner: 'vitest' },
      ),
    )
    const lines = text.split('\n')
    expect(lines[0]).toBe('rag-matchers: 3 assertions in 2 files, 2 passed, 1 failed · 1 eval set')
    expect(text).toContain('Eval set "retrieval" (test/a.test.ts) · 4 cases · pass')
    expect(lines).toContain('  metric    value   threshold  n  result')
    expect(lines).toContain('  mean R@3  0.5000  ≥ 0.4000   4  pass')
    expect(lines).toContain('    mean R@3 < 0.4000: q2 0.0000, q4 0.0000')
    expect(text).toContain('Assertions in test/b.test.ts · FAIL')
    expect(lines).toContain('  one   HitRate@3   0.0000  ≥ 1.0000   FAIL')
    expect(lines).toContain('  two   P@3 (.not)  0.3333  < 0.9000   pass')
    expect(text).not.toContain('Δ baseline')
  })

  it('adds a baseline column only when some metric has a baseline', () => {
    const text = renderTable(buildReport([evalSet({ baseline: { mean: 0.6, delta: -0.1 } })], { runner: 'vitest' }))
    expect(text).toContain('Δ baseline')
    expect(text).toContain('−0.1000 (baseline 0.6000)')
    expect(formatDelta(undefined, 4)).toBe('—')
    expect(formatDelta({ mean: 30, delta: 2.5 }, 2)).toBe('+2.50 (baseline 30.00)')
  })

  it('lists baseline comparisons under their set', () => {
    const text = renderTable(
      buildReport(
        [
          evalSet({
            extra: {
              metrics: [
                { metric: 'recall@3', baseline: 0.9, current: 0.6, delta: -0.3, pValue: 0.01, status: 'regressed' },
                { metric: 'bleu', baseline: 30, current: 31.5, delta: 1.5, pValue: 0.6, status: 'ok' },
              ],
            },
          }),
        ],
        { runner: 'vitest' },
      ),
    )
    const lines = text.split('\n')
    expect(lines).toContain('  baseline comparisons:')
    expect(lines).toContain('    recall@3  0.9000    0.6000   −0.3000  0.0100  regressed')
    expect(lines).toContain('    bleu      30.00     31.50    +1.50    0.6000  ok')
  })

  it('says FAIL with the count for a pooled row with a failing assertion, and marks shard reports partial', () => {
    const text = renderTable(
      buildReport([evalSet({ set: 's' }), evalSet({ set: 's', testIndex: 1, outcome: false, pass: false })], { runner: 'jest', shard: { index: 2, count: 3 } }),
    )
    expect(text).toContain('FAIL (1 of 2 assertions)')
    expect(text).toContain('shard 2/3 (partial')
  })

  it('prints BLEU on its 0–100 scale with 2 decimals and n/a for an undefined value', () => {
    const text = renderTable(
      buildReport(
        [
          a({ matcher: 'toScoreBleuAbove', metric: 'BLEU', value: 44.3212, threshold: 20, setSize: 3, signature: 'BLEU|version:0' }),
          a({ testIndex: 1, metric: 'kappa', value: null, threshold: 0.5, pass: false, outcome: false }),
        ],
        { runner: 'vitest' },
      ),
    )
    expect(text).toMatch(/\n {2}BLEU +44\.32 +≥ 20\.00 +3 +pass\n/)
    expect(text).toContain('n/a')
  })
})

describe('escapeHtml', () => {
  it('escapes the five HTML specials and the backtick', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;')
    expect(escapeHtml(INJECTED_ATTR)).toBe('&quot;&gt;&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;')
    expect(escapeHtml(42)).toBe('42')
  })
})

describe('renderHtml', () => {
  // Every text field the page shows, poisoned.
  const poisoned = evalSet({
    file: `test/${INJECTED_ATTR}.test.ts`,
    describe: [INJECTED_ANSWER],
    test: INJECTED_ATTR,
    fullName: INJECTED_ATTR,
    metric: `mean ${INJECTED_ANSWER}`,
    signature: `R@k|note:${INJECTED_ATTR}`,
    set: `set ${INJECTED_ATTR}`,
    perCase: [
      { id: INJECTED_ATTR, value: 0.2, pass: false },
      { id: 'q2', value: 0.9, pass: true },
    ],
    cases: [
      {
        id: INJECTED_ATTR,
        question: INJECTED_ANSWER,
        answer: `${INJECTED_ANSWER} ${INJECTED_ATTR}`,
        reference: INJECTED_ATTR,
        retrieved: [INJECTED_ANSWER],
        error: INJECTED_ATTR,
      },
      { id: 'q2', question: 'fine', answer: 'fine' },
    ],
  })
  const single = a({ file: `test/${INJECTED_ANSWER}.ts`, fullName: INJECTED_ANSWER, matcher: INJECTED_ATTR, metric: INJECTED_ATTR, signature: INJECTED_ANSWER })
  const html = renderHtml(buildReport([poisoned, single], { runner: 'vitest' }))

  /** Every start tag, parsed strictly (attribute values double-quoted): its name and attribute names. */
  function tags(page: string) {
    const found = [...page.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g)].map((m) => ({
      name: (m[1] as string).toLowerCase(),
      attributes: [...(m[2] as string).matchAll(/\s+([\w:-]+)(?:="[^"]*")?/g)].map((x) => (x[1] as string).toLowerCase()),
    }))
    return { found, opened: page.match(/<[a-zA-Z]/g)?.length ?? 0 }
  }

  it('has no markup from the run: only our own tags and attributes, no script, no img, no event handler', () => {
    const { found, opened } = tags(html)
    // Every "<letter" starts a well-formed tag of ours (an escape that failed would leave a stray one).
    expect(found).toHaveLength(opened)
    const names = new Set(found.map((t) => t.name))
    expect(
      [...names].filter(
        (t) =>
          ![
            'html',
            'head',
            'meta',
            'title',
            'style',
            'body',
            'header',
            'h1',
            'h2',
            'h3',
            'p',
            'span',
            'main',
            'section',
            'table',
            'tr',
            'th',
            'td',
            'code',
            'div',
            'figure',
            'figcaption',
            'svg',
            'line',
            'text',
            'rect',
          ].includes(t),
      ),
    ).toEqual([])
    expect(found.flatMap((t) => t.attributes).filter((n) => n.startsWith('on') || n === 'src' || n === 'href')).toEqual([])
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<img/i)
    // …and the poisoned text is there, escaped.
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;')
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;')
  })

  it('escapes attribute values (data-case, data-set, data-file)', () => {
    expect(html).toContain('data-case="&quot;&gt;&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;"')
    expect(html).toContain('data-set="set:set &quot;&gt;&lt;img')
    expect(html).toContain('data-file="test/&lt;script&gt;')
  })

  it('is self-contained and locks itself down with a Content-Security-Policy', () => {
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">`)
    expect(REPORT_CSP).toContain("default-src 'none'")
    expect(REPORT_CSP).not.toContain('script-src')
    expect(html).not.toMatch(/<link\b|\bsrc="(?!x)|https?:\/\/(?!www\.w3\.org\/2000\/svg)/)
  })

  it('draws one bar per case and a threshold line per chart', () => {
    expect(html.match(/<figure class="chart"/g)).toHaveLength(1)
    expect(html.match(/<rect class="bar /g)).toHaveLength(2)
    expect(html.match(/<line class="threshold"/g)).toHaveLength(1)
    expect(html.match(/<rect class="bar fail"/g)).toHaveLength(1)
  })

  it('says so when no assertion ran', () => {
    expect(renderHtml(buildReport([], { runner: 'jest' }))).toContain('No rag-matchers assertion ran.')
  })
})

describe('renderChart', () => {
  const row = (values: Array<number | null>, threshold = 0.5) =>
    buildReport([a({ threshold, value: 0.5, perCase: values.map((v, i) => ({ id: `c${i}`, value: v, pass: v !== null && v >= threshold })) })], { runner: 'vitest' })
      .evalSets[0]?.metrics[0] as Parameters<typeof renderChart>[0]

  function bars(svg: string) {
    return [...svg.matchAll(/<rect class="bar (\w+)"[^>]* y="([\d.-]+)" width="[\d.]+" height="([\d.]+)"/g)].map((m) => ({ state: m[1], y: Number(m[2]), h: Number(m[3]) }))
  }

  it('scales 0–1 metrics to 1 and draws taller bars for larger values', () => {
    const b = bars(renderChart(row([0.25, 1, 0.5])))
    expect(b.map((x) => x.state)).toEqual(['fail', 'pass', 'pass'])
    expect(b[1]?.h).toBeCloseTo((b[0]?.h as number) * 4, 6)
    expect(b[2]?.h).toBeCloseTo((b[0]?.h as number) * 2, 6)
  })

  it('gives a zero a visible sliver and a missing value an empty grey bar', () => {
    const b = bars(renderChart(row([0, null, 1])))
    expect(b[0]?.h).toBe(1.5)
    expect(b[1]).toMatchObject({ state: 'na', h: 0 })
  })

  it('scales BLEU-like values to 100', () => {
    const svg = renderChart(row([50, 100], 20))
    const b = bars(svg)
    expect(b[1]?.h).toBeCloseTo((b[0]?.h as number) * 2, 6)
    expect(svg).toContain('>100<')
  })
})

describe('reports say why', () => {
  const gate = a({
    matcher: 'toMatchMetricBaseline',
    metric: 'metrics regressed vs baseline "qa"',
    value: 6,
    threshold: 1,
    comparator: '<',
    pass: false,
    outcome: false,
    signature: '',
  })
  const loop = assertionMaker({ describe: ['loop'], test: 'each case hits', fullName: 'loop > each case hits' })
  const miss = loop({
    matcher: 'toHitWithin',
    metric: 'hit@1',
    value: 0,
    threshold: 1,
    pass: false,
    outcome: false,
    case: { id: 'q05', retrieved: ['x', 'y'], relevant: ['d5'] },
  })
  const judge = loop({
    matcher: 'toBeFaithful',
    metric: 'faithfulness',
    value: null,
    pass: false,
    outcome: false,
    extra: { error: 'replay miss: no recorded verdict <key 3f2a>' },
  })
  const thrown = loop({ value: null, pass: false, outcome: false, status: 'error', error: 'Matcher error: k must be a positive integer', case: { id: 'q06' } })

  it('prints the baseline gate as a count of regressed metrics in the table and the HTML', () => {
    const report = buildReport([gate], { runner: 'vitest' })
    expect(renderTable(report)).toMatch(/metrics regressed vs baseline "qa" +6 regressed metrics +allowed 0 +FAIL/)
    expect(renderTable(report)).not.toContain('6.0000')
    expect(renderHtml(report)).toContain('<td class="num">6 regressed metrics</td><td class="num">allowed 0</td>')
  })

  it('does not repeat a case id the test title already names (test.each with $id)', () => {
    const each = assertionMaker({ describe: ['loop'], test: 'hits q07 within 1', fullName: 'loop > hits q07 within 1' })
    const named = each({ matcher: 'toHitWithin', metric: 'hit@1', value: 0, threshold: 1, pass: false, outcome: false, case: { id: 'q07' } })
    const text = renderTable(buildReport([named, miss], { runner: 'vitest' }))
    expect(text).toMatch(/hits q07 within 1 +hit@1 +0\.0000/)
    expect(text).not.toContain('[case q07]')
    expect(text).toContain('each case hits [case q05]')
  })

  it('names the case of a looped assertion, shows ERROR and the causes (thrown errors, judge misses) in the table and the HTML', () => {
    const report = buildReport([miss, judge, thrown], { runner: 'vitest' })
    const text = renderTable(report)
    expect(text.split('\n').slice(0, 2)).toEqual([
      'rag-matchers: 3 assertions in 1 file, 0 passed, 3 failed (1 errored) · 0 eval sets',
      'verdict: FAIL — 2 assertions failed; 1 assertion errored',
    ])
    expect(text).toMatch(/each case hits \[case q05\] +hit@1 +0\.0000 +≥ 1\.0000 +FAIL/)
    expect(text).toMatch(/each case hits \[case q06\] .* ERROR/)
    expect(text).toContain('    each case hits: replay miss: no recorded verdict <key 3f2a>')
    expect(text).toContain('    each case hits [case q06] (error): Matcher error: k must be a positive integer')
    const html = renderHtml(report)
    expect(html).toContain('<p class="verdict fail">FAIL — 2 assertions failed; 1 assertion errored</p>')
    expect(html).toContain('<span class="muted">retrieved:</span> <code>x, y</code><br><span class="muted">expected:</span> <code>d5</code>')
    expect(html).toContain('<td class="text fail">replay miss: no recorded verdict &lt;key 3f2a&gt;</td>')
    expect(html).toContain('<td class="fail">ERROR</td><td class="text fail">Matcher error: k must be a positive integer</td>')
  })

  it('lists failures outside the rag-matchers assertions, also in a run that recorded none', () => {
    const run = {
      tests: 2,
      failedTests: 1,
      failedOutside: [{ file: 'a.test.ts', test: 'x > y', error: 'expected 1 to be 2' }],
      fileErrors: [{ file: 'b.test.ts', error: 'cannot find module' }],
    }
    const report = buildReport([], { runner: 'jest', run })
    const text = renderTable(report)
    expect(text).toContain('verdict: FAIL — 1 test failed outside rag-matchers assertions; 1 file or hook failed to run')
    expect(text).toContain('  a.test.ts › x > y: expected 1 to be 2')
    expect(text).toContain('  b.test.ts: cannot find module')
    expect(renderHtml(report)).toContain('<section class="run-failures">')
  })
})
