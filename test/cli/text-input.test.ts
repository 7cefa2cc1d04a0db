// How the text commands read their input (cli/text-input.ts): sacrebleu's line rules, CRLF, BOM, empty files,
// stdin, and the argparse-style option forms.
import { corpusBleu } from '../../src/generation/bleu.js'
import { corpusChrf } from '../../src/generation/chrf.js'
import { CliUsageError, parseCliArgs, splitSegments, COMMON_OPTIONS } from '../../cli/text-input.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'

const files = tempFiles('rag-text-input-')
afterAll(() => files.cleanup())

describe('splitSegments: one segment per line, as sacrebleu reads files', () => {
  it('a final "\\n" ends the last line without adding a segment; a blank line before it is an empty segment', () => {
    expect(splitSegments('a\nb\n')).toEqual(['a', 'b'])
    expect(splitSegments('a\nb')).toEqual(['a', 'b'])
    expect(splitSegments('a\n\n')).toEqual(['a', ''])
    expect(splitSegments('\n')).toEqual([''])
    expect(splitSegments('')).toEqual([])
  })

  it('rstrips each line of Python whitespace (CRLF included) and splits on "\\n" only', () => {
    expect(splitSegments('a b \r\nc\t\r\n')).toEqual(['a b', 'c'])
    // a lone CR, U+2028 and U+0085 inside a line stay (Python's open(newline="\\n") splits on "\\n" only)
    expect(splitSegments('x\ry\u2028z\u0085w\n')).toEqual(['x\ry\u2028z\u0085w'])
    // trailing Python whitespace that JS \s misses (U+001C) is stripped; U+FEFF (not Python whitespace) is kept
    expect(splitSegments('a\u001c\nb\ufeff\n')).toEqual(['a', 'b\ufeff'])
    expect(splitSegments('  leading kept\n')).toEqual(['  leading kept'])
  })
})

describe('rag-matchers bleu/chrf: reading the files', () => {
  const hyps = ['The cat sat on the mat.', 'It was not raining.', 'Numbers: 1,000.50 and 3:45.']
  const refs = ['The cat is on the mat.', 'It was not raining at all.', 'Numbers: 1,000.50 and 3:45!']

  it('CRLF files, a UTF-8 BOM and a missing final newline give the same segments as a plain LF file', async () => {
    const plainHyp = files.write('plain.hyp', `${hyps.join('\n')}\n`)
    const plainRef = files.write('plain.ref', `${refs.join('\n')}\n`)
    const want = await runCli(['bleu', plainRef, '-i', plainHyp, '--json'])
    expect(JSON.parse(want.stdout).score).toBe(corpusBleu(hyps, [refs]).value)
    const crlfHyp = files.write('crlf.hyp', `\ufeff${hyps.join('\r\n')}\r\n`)
    const crlfRef = files.write('crlf.ref', `\ufeff${refs.join('\r\n')}`)
    expect(await runCli(['bleu', crlfRef, '-i', crlfHyp, '--json'])).toEqual(want)
    // chrF with whitespace kept would see a stray BOM or CR: it sees neither
    const chrf = await runCli(['chrf', crlfRef, '-i', crlfHyp, '--json', '--chrf-whitespace'])
    expect(JSON.parse(chrf.stdout).score).toBe(corpusChrf(hyps, [refs], { keepWhitespace: true }).value)
  })

  it('reads the hypotheses from stdin by default, or a reference from stdin with -', async () => {
    const hyp = files.write('s.hyp', `${hyps.join('\n')}\n`)
    const ref = files.write('s.ref', `${refs.join('\n')}\n`)
    const want = await runCli(['bleu', ref, '-i', hyp])
    expect(want.code).toBe(0)
    expect(await runCli(['bleu', ref], `${hyps.join('\n')}\n`)).toEqual(want)
    expect(await runCli(['bleu', ref, '-i', '-'], new TextEncoder().encode(`${hyps.join('\n')}\n`))).toEqual(want)
    expect(await runCli(['bleu', '-', '--input', hyp], `${refs.join('\n')}\n`)).toEqual(want)
    // options may come before, between or after the files; `--` ends the options
    expect(await runCli(['bleu', '-w', '1', ref, '--input', hyp])).toEqual(want)
    expect(await runCli(['bleu', '-i', hyp, '--', ref])).toEqual(want)
  })

  it('a blank line before the end is a real empty segment (so the line counts must still agree)', async () => {
    const ref = files.write('blank.ref', 'a b c d\n\n')
    const hyp = files.write('blank.hyp', 'a b c d\nsomething\n')
    const out = await runCli(['bleu', ref, '-i', hyp, '--json'])
    expect(JSON.parse(out.stdout).score).toBe(corpusBleu(['a b c d', 'something'], [['a b c d', '']]).value)
    const short = await runCli(['bleu', ref, '-i', files.write('one.hyp', 'a b c d\n')])
    expect(short.code).toBe(2)
    expect(short.stderr).toContain(`have 1 line but ${ref} has 2 lines`)
  })

  it('an empty hypothesis file has zero segments and is refused (sacrebleu: "contains no sentence"), exit 2', async () => {
    const empty = files.write('empty.txt', '')
    const out = await runCli(['chrf', empty, '-i', empty])
    expect(out).toEqual({ code: 2, stdout: '', stderr: `rag-matchers chrf: ${empty} has no lines: there is no segment to score\n` })
    // a BOM alone is an empty file too
    expect((await runCli(['chrf', empty, '-i', files.write('bom.txt', '\ufeff')])).code).toBe(2)
  })

  it('invalid UTF-8 and a directory are input errors (exit 2)', async () => {
    const ref = files.write('u.ref', 'a\n')
    const bad = files.write('bad.hyp', new Uint8Array([0x61, 0xc3, 0x28, 0x0a]))
    expect(await runCli(['bleu', ref, '-i', bad])).toEqual({ code: 2, stdout: '', stderr: `rag-matchers bleu: ${bad} is not valid UTF-8\n` })
    const dir = files.path('')
    const out = await runCli(['bleu', dir], 'a\n')
    expect(out.code).toBe(2)
    expect(out.stderr).toContain(`cannot read '${dir}': EISDIR`)
  })

  it("'-' without standard input is a usage error", async () => {
    const out = await runCli(['bleu', files.write('x.ref', 'a\n')])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain("'-' needs standard input")
  })
})

describe('parseCliArgs: argparse-style forms', () => {
  const defs = [...COMMON_OPTIONS, { names: ['-tok', '--tokenize'], key: 'tokenize', value: true }, { names: ['-lc'], key: 'lowercase' }]

  it('accepts NAME VALUE, NAME=VALUE, -wN; the last value wins; flags; positionals anywhere', () => {
    const p = parseCliArgs(['r1', '-tok', 'intl', '-w2', 'r2', '--tokenize=char', '-lc', '--json', '-', '--', '-lc'], defs)
    expect(p.positionals).toEqual(['r1', 'r2', '-', '-lc'])
    expect(p.values.get('tokenize')).toBe('char')
    expect(p.values.get('width')).toBe('2')
    expect([...p.flags].sort()).toEqual(['json', 'lowercase'])
    expect(p.spelled.get('tokenize')).toBe('--tokenize')
    expect(parseCliArgs(['-tok=none'], defs).values.get('tokenize')).toBe('none')
  })

  it('rejects unknown options, values given to flags, and missing values', () => {
    expect(() => parseCliArgs(['--tok', 'x'], defs)).toThrow(new CliUsageError('unknown option --tok'))
    expect(() => parseCliArgs(['-lcx'], defs)).toThrow(new CliUsageError('unknown option -lcx'))
    expect(() => parseCliArgs(['-lc=1'], defs)).toThrow(new CliUsageError("option -lc takes no value, got '1'"))
    expect(() => parseCliArgs(['-tok'], defs)).toThrow(new CliUsageError('option -tok needs a value'))
  })
})
