// The rate view's server side (`rag-matchers ui --rate`, #30) over the UI fixture's history (three runs with
// hostile ids and texts), on SQLite and PostgreSQL: the one write is POST /api/rate, only with --rate, only
// from the page's own origin with the app's header and JSON; every field is checked (unknown fields, wrong
// types, a missing rater, a case the run does not have, a score off the rubric's scale: 400 with a message);
// many ratings posted at once by two raters are all stored; the agreement resource says "needs at least two
// raters" instead of NaN, and its kappa equals the agreement API's on the export; the CLI's flags and the
// rubric file are checked.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run as runUi } from '../../cli/ui.js'
import { compareReports } from '../../cli/compare.js'
import { agreementReport } from '../../src/agreement/report.js'
import { parseRatings } from '../../src/agreement/ratings.js'
import { readRatings } from '../../src/history/ratings.js'
import { HistoryStore } from '../../src/history/store.js'
import type { UiIndex, UiRate, UiRatings } from '../../src/ui/api-types.js'
import { keyOf } from '../../src/ui/keys.js'
import { UiResources } from '../../src/ui/resources.js'
import { DEFAULT_RUBRIC, parseRubric, RubricError, type Rubric } from '../../src/ui/rubric.js'
import { startUiServer, type RunningUi } from '../../src/ui/server.js'
import { exportUi } from '../../src/ui/export.js'
import { builtApp } from './app-build.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { ATTR, JS_URL, makeHistory, REGRESSING, type FixtureHistory } from './history-fixture.js'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

const RUBRIC: Rubric = parseRubric({
  dimensions: [
    { name: 'correctness', scale: '1-5', text: 'Right facts? <script>alert(1)</script>', labels: { '1': 'wrong', '5': 'right' } },
    { name: 'grounded', scale: 'pass-fail', text: 'Every claim in the contexts?' },
  ],
})

function http(ui: RunningUi, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(ui.url)
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers: { Host: url.host, ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A rating as the app posts it: its header, JSON, and (as a browser) its own origin. */
function post(ui: RunningUi, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(ui.url)
  return http(ui, 'POST', '/api/rate', typeof body === 'string' ? body : JSON.stringify(body), {
    'Content-Type': 'application/json',
    'X-Rag-Matchers': 'rate',
    Origin: `http://${url.host}`,
    'Sec-Fetch-Site': 'same-origin',
    ...headers,
  })
}

const json = <T>(a: Answer): T => JSON.parse(a.body) as T

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('rag-matchers ui --rate: the server', kind), () => {
    const fx = storeFixture(kind)
    let history: FixtureHistory
    let resources: UiResources
    let ui: RunningUi
    let readOnly: RunningUi
    let readOnlyResources: UiResources

    beforeAll(async () => {
      history = await makeHistory(await fx.fresh())
      resources = new UiResources({ target: history.target, root: history.dir, mode: 'server', compareReports, rubric: RUBRIC })
      ui = await startUiServer({ resources, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
      readOnlyResources = new UiResources({ target: history.target, root: history.dir, mode: 'server', compareReports })
      readOnly = await startUiServer({ resources: readOnlyResources, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
    }, 120_000)

    afterAll(async () => {
      await ui?.close()
      await resources?.close()
      await readOnly?.close()
      await readOnlyResources?.close()
    })

    const run = () => history.runs[2]!.id
    const score = (over: Record<string, unknown> = {}) => ({ kind: 'score', run: run(), set: 'qa', case: 'q1', rater: 'ana', dimension: 'correctness', score: 4, ...over })

    test('without --rate the server stays read-only: POST is 405, the rate resources are 404, and the index says rating is off', async () => {
      expect((await post(readOnly, score())).status).toBe(405)
      expect((await http(readOnly, 'GET', `/api/rate/${run()}/${keyOf('qa')}`)).status).toBe(404)
      expect((await http(readOnly, 'GET', `/ratings/${run()}/${keyOf('qa')}.jsonl`)).status).toBe(404)
      expect(json<UiIndex>(await http(readOnly, 'GET', '/api/index')).rating).toBe(false)
      expect(json<UiIndex>(await http(ui, 'GET', '/api/index')).rating).toBe(true)
    })

    test('a valid rating is stored; the same rater rating again replaces it', async () => {
      const first = await post(ui, score({ case: REGRESSING, score: 2 }))
      expect({ status: first.status, body: json(first) }).toEqual({ status: 200, body: { stored: true, rating: expect.objectContaining({ caseId: REGRESSING, score: 2 }) } })
      expect((await post(ui, score({ case: REGRESSING, score: 5 }))).status).toBe(200)
      expect((await post(ui, score({ case: REGRESSING, dimension: 'grounded', score: 'fail' }))).status).toBe(200)
      const r = json<UiRatings>(await http(ui, 'GET', `/api/ratings/${run()}/${keyOf('qa')}`))
      expect(r.ratings.filter((x) => x.caseId === REGRESSING).map((x) => [x.dimension, x.rater, x.score ?? x.choice])).toEqual([
        ['correctness', 'ana', 5],
        ['grounded', 'ana', 'fail'],
      ])
    })

    test.each([
      ['an unknown field', () => score({ extra: 1 }), /unknown field "extra"/],
      ['a wrong type', () => score({ score: '4' }), /score "4" is not on the scale of correctness \(an integer from 1 to 5\)/],
      ['a score off the scale', () => score({ score: 6 }), /score 6 is not on the scale/],
      ['a fraction', () => score({ score: 3.5 }), /score 3.5 is not on the scale/],
      ['pass/fail on a 1–5 dimension', () => score({ score: 'pass' }), /not on the scale/],
      ['a number on a pass/fail dimension', () => score({ dimension: 'grounded', score: 1 }), /"pass" or "fail"/],
      ['no rater', () => score({ rater: undefined }), /the rater id is missing/],
      ['an empty rater', () => score({ rater: '   ' }), /the rater id is missing/],
      ['a rater that is not a string', () => score({ rater: 7 }), /rater must be a string/],
      ['a rater with a control character', () => score({ rater: 'a\nb' }), /control character/],
      ['a case the run does not have', () => score({ case: 'not-a-case' }), /case "not-a-case" is not in eval set "qa" of run/],
      ['a set the run does not have', () => score({ set: 'nope' }), /has no eval set "nope"/],
      ['a run that does not exist', () => score({ run: 'ffffffffffff' }), /no run ffffffffffff/],
      ['a dimension the rubric does not have', () => score({ dimension: 'style' }), /the rubric has no dimension "style"/],
      ['no kind', () => ({ ...score(), kind: undefined }), /kind must be "score" or "pairwise"/],
      ['an array', () => [score()], /must be a JSON object/],
      [
        'a pairwise rating with a bad winner',
        () => ({ kind: 'pairwise', run: run(), set: 'qa', case: 'q1', rater: 'ana', other: history.runs[1]!.id, winner: 'c', shownFirst: 'x' }),
        /winner/,
      ],
    ] as Array<[string, () => unknown, RegExp]>)('%s is refused with 400 and a message', async (_name, makeBody, message) => {
      const body = makeBody()
      const count = async () => {
        const store = await HistoryStore.open(history.target, { root: history.dir, write: false })
        const n = (await readRatings(store, { runId: run(), set: 'qa' })).length
        await store.close()
        return n
      }
      const before = await count()
      const answer = await post(ui, body)
      expect({ status: answer.status, error: json<{ error: string }>(answer).error }).toEqual({ status: 400, error: expect.stringMatching(message) })
      expect(await count()).toBe(before)
    })

    test('a rating from elsewhere is refused: no app header, another origin, a cross-site fetch, not JSON, too big, another host, another path', async () => {
      const error = async (a: Promise<Answer>) => {
        const x = await a
        return [x.status, json<{ error?: string }>(x).error ?? x.body.trim()]
      }
      expect(await error(post(ui, score(), { 'X-Rag-Matchers': '' }))).toEqual([403, expect.stringContaining('X-Rag-Matchers: rate')])
      expect(await error(post(ui, score(), { Origin: 'http://evil.example' }))).toEqual([403, expect.stringContaining('not http://evil.example')])
      expect(await error(post(ui, score(), { 'Sec-Fetch-Site': 'cross-site' }))).toEqual([403, expect.stringContaining('cross-site')])
      expect(await error(post(ui, score(), { 'Content-Type': 'text/plain' }))).toEqual([415, expect.stringContaining('application/json')])
      expect(await error(post(ui, { ...score(), rater: 'x'.repeat(20_000) }))).toEqual([413, expect.stringContaining('at most')])
      expect(await error(post(ui, '{"kind": "score",'))).toEqual([400, expect.stringContaining('not JSON')])
      expect(await error(post(ui, score(), { Host: 'evil.example:80', Origin: 'http://evil.example:80' }))).toEqual([403, expect.stringContaining('its own address')])
      expect((await http(ui, 'POST', '/api/index', JSON.stringify(score()), { 'Content-Type': 'application/json', 'X-Rag-Matchers': 'rate' })).status).toBe(405)
      expect((await http(ui, 'PUT', '/api/rate', JSON.stringify(score()), { 'Content-Type': 'application/json', 'X-Rag-Matchers': 'rate' })).status).toBe(405)
    })

    test('two raters posting many ratings at once: every rating is stored, and the agreement is the agreement API’s on the export', async () => {
      const ids = json<UiRate>(await http(ui, 'GET', `/api/rate/${history.runs[1]!.id}/${keyOf('qa')}`)).cases.map((c) => c.id)
      expect(ids).toEqual(expect.arrayContaining(['q1', REGRESSING, ATTR, JS_URL]))
      const target = history.runs[1]!.id
      const ana = [5, 1, 4, 4, 2, 3]
      const ben = [5, 2, 4, 3, 2, 3]
      const posts = ids.flatMap((id, i) =>
        [
          ['ana', ana[i]],
          ['ben', ben[i]],
        ].flatMap(([rater, s]) => [
          post(ui, { kind: 'score', run: target, set: 'qa', case: id, rater, dimension: 'correctness', score: s }),
          post(ui, { kind: 'score', run: target, set: 'qa', case: id, rater, dimension: 'grounded', score: (s as number) >= 3 ? 'pass' : 'fail' }),
        ]),
      )
      const answers = await Promise.all(posts)
      expect(answers.map((a) => a.status)).toEqual(posts.map(() => 200))
      const r = json<UiRatings>(await http(ui, 'GET', `/api/ratings/${target}/${keyOf('qa')}`))
      expect(r.ratings.length).toBe(ids.length * 4)
      const exported = await http(ui, 'GET', `/ratings/${target}/${keyOf('qa')}.jsonl`)
      expect(exported.headers['content-type']).toBe('application/x-ndjson; charset=utf-8')
      expect(exported.headers['content-disposition']).toContain('attachment')
      const back = parseRatings(exported.body, { format: 'jsonl', source: 'export' })
      expect(back.scores.length).toBe(ids.length * 4)
      for (const [dimension, level] of [
        ['correctness', 'ordinal'],
        ['grounded', 'nominal'],
      ] as const) {
        const api = agreementReport(
          back.scores.filter((s) => s.dimension === dimension),
          { level },
        ).details.dimensions[0]!
        const page = r.agreement.find((d) => d.dimension === dimension)!
        expect(page.raters).toEqual(['ana', 'ben'])
        expect(page.message).toBeUndefined()
        expect(page.cohen?.[0]?.value).toBe(api.pairwiseKappa[0]?.value)
        expect(Number.isFinite(page.cohen?.[0]?.value)).toBe(true)
      }
    })

    test('fewer than two raters: a message, never NaN; three raters: Fleiss and Krippendorff', async () => {
      const target = history.runs[0]!.id
      const empty = json<UiRatings>(await http(ui, 'GET', `/api/ratings/${target}/${keyOf('qa')}`))
      expect(empty.agreement.map((d) => d.message)).toEqual([
        'inter-rater agreement needs at least two raters (no ratings yet)',
        'inter-rater agreement needs at least two raters (no ratings yet)',
      ])
      expect((await post(ui, score({ run: target, rater: 'ana', score: 3 }))).status).toBe(200)
      const one = json<UiRatings>(await http(ui, 'GET', `/api/ratings/${target}/${keyOf('qa')}`))
      expect(one.agreement[0]?.message).toBe('inter-rater agreement needs at least two raters (only ana so far)')
      expect(JSON.stringify(one)).not.toContain('NaN')
      for (const rater of ['ben', 'chen']) expect((await post(ui, score({ run: target, rater, score: 3 }))).status).toBe(200)
      const three = json<UiRatings>(await http(ui, 'GET', `/api/ratings/${target}/${keyOf('qa')}`))
      const d = three.agreement[0]!
      // one case, one category: every statistic is undefined for the data, and says why
      expect(d.fleiss).toEqual({ value: null, reason: expect.any(String), items: 1 })
      expect(d.krippendorff).toEqual({ value: null, reason: expect.any(String), level: 'ordinal' })
      expect(JSON.stringify(three)).not.toContain('NaN')
    })

    test('pairwise: the preference is stored against the other run with the order shown, and exported as { item, rater, a, b, winner }', async () => {
      const [r0, r1] = [history.runs[0]!.id, history.runs[1]!.id]
      const pair = { kind: 'pairwise', run: r1, set: 'qa', case: 'q5', rater: 'ana', other: r0, winner: 'b', shownFirst: r0 }
      expect((await post(ui, pair)).status).toBe(200)
      expect(json<{ error: string }>(await post(ui, { ...pair, shownFirst: 'abc' })).error).toMatch(/shownFirst must be one of the two run ids/)
      expect(json<{ error: string }>(await post(ui, { ...pair, other: r1 })).error).toMatch(/other must be the id of another run/)
      expect(json<{ error: string }>(await post(ui, { ...pair, dimension: 'x' })).error).toMatch(/unknown field "dimension"/)
      const r = json<UiRatings>(await http(ui, 'GET', `/api/ratings/${r1}/${keyOf('qa')}/${r0}`))
      expect(r.ratings).toEqual([{ caseId: 'q5', rater: 'ana', dimension: 'preference', choice: 'b', shownFirst: r0, ratedAt: expect.any(String) }])
      const back = parseRatings((await http(ui, 'GET', `/ratings/${r1}/${keyOf('qa')}/${r0}.jsonl`)).body, { format: 'jsonl' })
      expect(back.comparisons).toEqual([{ item: 'q5', rater: 'ana', a: r1, b: r0, winner: 'b' }])
    })

    test('the judge against the raters: a metric the run lacks, and a judge on another scale, are messages; a 0–1 judge is mapped to 1–5', async () => {
      const rubric = parseRubric({
        dimensions: [
          { name: 'missing', scale: '1-5', text: 't', judge: 'no such metric' },
          { name: 'recall', scale: '1-5', text: 't', judge: 'mean R@2' },
          { name: 'passes', scale: 'pass-fail', text: 't', judge: 'mean R@2' },
        ],
      })
      const own = new UiResources({ target: history.target, root: history.dir, mode: 'server', compareReports, rubric })
      try {
        const target = history.runs[2]!.id
        for (const [rater, s] of [
          ['ana', 5],
          ['ben', 4],
        ] as const) {
          for (const c of ['q1', REGRESSING, 'q5']) {
            await own.desk!.save({ kind: 'score', run: target, set: 'qa', case: c, rater, dimension: 'recall', score: c === REGRESSING ? 1 : s })
            await own.desk!.save({ kind: 'score', run: target, set: 'qa', case: c, rater, dimension: 'passes', score: c === REGRESSING ? 'fail' : 'pass' })
          }
        }
        const r = (await own.get(`ratings/${target}/${keyOf('qa')}`)) as UiRatings
        const by = new Map(r.agreement.map((d) => [d.dimension, d]))
        expect(by.get('missing')?.judge).toEqual({ metric: 'no such metric', message: 'this run recorded no metric "no such metric" for eval set "qa"' })
        // recall@2 per case is 0, 0.5 or 1: mapped to 1, 3, 5 and compared as humanAlignment does
        expect(by.get('recall')?.judge).toEqual({ metric: 'mean R@2', n: 3, kappa: expect.anything(), spearman: expect.anything() })
        expect(by.get('passes')?.judge?.n).toBe(3)
        expect(by.get('passes')?.judge?.kappa?.value).toBe(1)
        expect(JSON.stringify(r)).not.toContain('NaN')
      } finally {
        await own.close()
      }
    })

    test('a static export has no rating: no rate resources are written and its index says rating is off', async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'rag-ui-rate-export-')), 'site')
      const exporting = new UiResources({ target: history.target, root: history.dir, mode: 'static', compareReports, rubric: RUBRIC })
      await exportUi(exporting, await builtApp(), dir)
      await exporting.close()
      const index = readFileSync(join(dir, 'data', 'index.js'), 'utf8')
      expect(index).toContain('"rating":false')
    })
  })
}

describe('rag-matchers ui --rate: the command and the rubric', () => {
  const io = () => {
    let out = ''
    let err = ''
    return {
      io: { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: (s: string) => ((err += s), true) } } as never,
      out: () => out,
      err: () => err,
    }
  }

  test('usage: --rate with --export, --rubric without --rate, --export-ratings with serving flags', async () => {
    for (const argv of [
      ['--export', 'x', '--rate'],
      ['--rubric', 'r.json'],
      ['--export-ratings', 'x.jsonl', '--rate'],
    ]) {
      const c = io()
      expect(await runUi(argv, c.io)).toBe(1)
      expect(c.err()).toMatch(/rag-matchers ui: /)
    }
  })

  test('a rubric that cannot be used stops the command with exit 2 and names the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-ui-rubric-'))
    const file = join(dir, 'rubric.json')
    writeFileSync(file, JSON.stringify({ dimensions: [{ name: 'c', scale: '1-10', text: 't' }] }))
    const c = io()
    expect(await runUi(['--rate', '--rubric', file, '--history', join(dir, 'h.sqlite')], c.io)).toBe(2)
    expect(c.err()).toContain('dimensions[0].scale must be "1-5" or "pass-fail", got "1-10"')
  })

  test('parseRubric is strict: unknown keys, duplicates, the reserved name, labels off the scale', () => {
    const bad = (v: unknown) => () => parseRubric(v, 'r.json')
    expect(bad({ dimensions: [] })).toThrow(RubricError)
    expect(bad({ dimensions: [{ name: 'a', scale: '1-5', text: 't', weight: 2 }] })).toThrow(/unknown key "weight"/)
    expect(bad({ dimensions: [{ name: 'a', scale: '1-5', text: 't' }], extra: 1 })).toThrow(/unknown key "extra"/)
    expect(
      bad({
        dimensions: [
          { name: 'a', scale: '1-5', text: 't' },
          { name: 'a', scale: 'pass-fail', text: 't' },
        ],
      }),
    ).toThrow(/"a" is given twice/)
    expect(bad({ dimensions: [{ name: 'preference', scale: '1-5', text: 't' }] })).toThrow(/pairwise mode's/)
    expect(bad({ dimensions: [{ name: 'a', scale: '1-5', text: 't', labels: { '6': 'x' } }] })).toThrow(/"6" is not a point of the scale/)
    expect(bad({ dimensions: [{ name: 'a', scale: '1-5', text: '' }] })).toThrow(/text must be a non-empty string/)
    expect(
      parseRubric(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'human-eval', 'rubric.json'), 'utf8'))).dimensions.map((d) => d.name),
    ).toEqual(['correctness', 'helpfulness'])
    expect(DEFAULT_RUBRIC.dimensions.map((d) => d.scale)).toEqual(['1-5'])
  })

  test('--export-ratings writes every stored rating as JSONL that loadRatings reads', async () => {
    const history = await makeHistory()
    const store = await HistoryStore.open(history.target, { root: history.dir, write: true })
    const { saveRating } = await import('../../src/history/ratings.js')
    await saveRating(store, { runId: history.runs[0]!.id, set: 'qa', caseId: 'q1', rater: 'ana', dimension: 'overall', score: 4 })
    await saveRating(store, { runId: history.runs[0]!.id, set: 'qa', caseId: 'q1', rater: 'ben', dimension: 'overall', score: 5 })
    await store.close()
    const out = join(history.dir, 'ratings.jsonl')
    const c = io()
    expect(await runUi(['--export-ratings', out, '--history', history.text], c.io)).toBe(0)
    expect(c.out()).toContain('wrote 2 ratings')
    expect(parseRatings(readFileSync(out, 'utf8'), { format: 'jsonl' }).scores).toEqual([
      { item: 'q1', rater: 'ana', dimension: 'overall', score: 4 },
      { item: 'q1', rater: 'ben', dimension: 'overall', score: 5 },
    ])
  })
})
