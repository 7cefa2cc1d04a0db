// The Python-compatible JSON writer of the sacrebleu outputs and the fancy_grid table, checked against what
// CPython 3.11 prints (`repr(float)`, `json.dumps(..., indent=2, ensure_ascii=False)`) and tabulate's layout rules.
import { pyFloatRepr, pyJsonDumps } from '../../cli/python-json.js'
import { fancyGrid } from '../../cli/text-table.js'
import { parseCliArgs } from '../../cli/text-input.js'

describe('pyFloatRepr: Python repr(float)', () => {
  // [value, repr(value) as CPython 3.11 prints it]
  const cases: Array<[number, string]> = [
    [65.0, '65.0'],
    [20.4, '20.4'],
    [0.0, '0.0'],
    [100.0, '100.0'],
    [9.999000099990002e-5, '9.999000099990002e-05'],
    [0.000999000999000999, '0.000999000999000999'],
    [0.26873126873126874, '0.26873126873126874'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1.5e-7, '1.5e-07'],
    [1e16, '1e+16'],
    [1.2345678901234568e17, '1.2345678901234568e+17'],
    [123456789012345.6, '123456789012345.6'],
    [62.11193381687369, '62.11193381687369'],
    [0.1, '0.1'],
    [-3.25, '-3.25'],
    [2.5e-300, '2.5e-300'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [5e-324, '5e-324'],
    [1234567890123456.7, '1234567890123456.8'],
  ]
  it.each(cases)('%s → %s', (value, repr) => {
    expect(pyFloatRepr(value)).toBe(repr)
  })
})

describe('pyJsonDumps: json.dumps(indent=N, ensure_ascii=False)', () => {
  it('nests, keeps non-ASCII, escapes control characters and writes empty containers inline', () => {
    expect(pyJsonDumps({ a: [1, { b: null, c: 'μ ± x\n' }], d: [], e: {} }, 2)).toBe(
      '{\n  "a": [\n    1.0,\n    {\n      "b": null,\n      "c": "μ ± x\\n"\n    }\n  ],\n  "d": [],\n  "e": {}\n}',
    )
  })
})

describe('fancyGrid: tabulate fancy_grid with the first column right-aligned', () => {
  it('pads to the widest line or header + 2, centres with the odd space on the right, tops multi-line cells', () => {
    expect(
      fancyGrid(
        ['System', 'BLEU'],
        [
          ['a', '1.0'],
          ['bb', '22.5\n(p = 0.0010)*'],
        ],
        ['right', 'center'],
      ),
    ).toBe(
      [
        '╒══════════╤═══════════════╕',
        '│   System │     BLEU      │',
        '╞══════════╪═══════════════╡',
        '│        a │      1.0      │',
        '├──────────┼───────────────┤',
        '│       bb │     22.5      │',
        '│          │ (p = 0.0010)* │',
        '╘══════════╧═══════════════╛',
      ].join('\n'),
    )
  })
})

describe("parseCliArgs: multi-value options (argparse nargs='+')", () => {
  const defs = [
    { names: ['-i', '--input'], key: 'input', value: true, multi: true },
    { names: ['-m', '--metrics'], key: 'metrics', value: true, multi: true },
    { names: ['-w'], key: 'width', value: true },
  ]
  it('takes the arguments up to the next option; "-" is a value; positionals before and after', () => {
    const args = parseCliArgs(['ref.txt', '-i', 'a.txt', '-', '-m', 'bleu', 'chrf', '-w', '2', 'ref2.txt'], defs)
    expect(args.lists.get('input')).toEqual(['a.txt', '-'])
    expect(args.lists.get('metrics')).toEqual(['bleu', 'chrf'])
    expect(args.positionals).toEqual(['ref.txt', 'ref2.txt'])
    expect(parseCliArgs(['--metrics=ter', 'bleu'], defs).lists.get('metrics')).toEqual(['ter', 'bleu'])
    expect(() => parseCliArgs(['-m', '-w', '2'], defs)).toThrow('option -m needs at least one value')
  })
})
