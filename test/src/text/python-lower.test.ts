import { pyLower } from '../../../src/text/python-lower.js'

// Expected values are CPython 3.11 (Unicode 14.0) `str.lower()` outputs.
describe('pyLower', () => {
  it.each([
    ['ASCII', 'Hello WORLD 42', 'hello world 42'],
    ['KELVIN SIGN to ASCII k', '\u212A', 'k'],
    ['dotted capital I to i + combining dot', '\u0130', 'i\u0307'],
    ['ANGSTROM SIGN', '\u212B', '\u00E5'],
    ['final sigma', 'ΟΔΟΣ', 'οδος'],
    ['lone sigma', 'Σ', 'σ'],
    ['sigma before a case-ignorable then a letter is not final', 'ΑΣ.Α', 'ασ.α'],
    ['sigma before a case-ignorable at the end is final', 'ΑΣ.', 'ας.'],
    ['polytonic Greek', 'ὈΔΥΣΣΕΎΣ', 'ὀδυσσεύς'],
    ['supplementary-plane letters', '\u{10400}\u0130', '\u{10428}i\u0307'],
  ])('%s', (_name, input, expected) => {
    expect(pyLower(input)).toBe(expected)
  })

  it('leaves letters that Unicode 14 does not case as they are (JS lowercases them)', () => {
    expect('\uA7CB'.toLowerCase()).not.toBe('\uA7CB')
    expect(pyLower('\uA7CB')).toBe('\uA7CB')
    expect(pyLower('A\u{16EA0}B\u1C89C')).toBe('a\u{16EA0}b\u1C89c')
  })

  it('keeps the final-sigma context around those letters as Python does', () => {
    expect(pyLower('ΑΣ\uA7CB')).toBe('ας\uA7CB')
    expect(pyLower('\uA7CBΣΑ')).toBe('\uA7CBσα')
    expect(pyLower('ΑΣ\uA7CBΑ')).toBe('ας\uA7CBα')
  })
})
