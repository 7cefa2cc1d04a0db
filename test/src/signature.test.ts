import { readFileSync } from 'node:fs'
import { buildSignature, parseSignature, signatureDifferences, VERSION } from '../../src/index.js'

describe('signatures', () => {
  it('puts version last, prints booleans as yes/no, omits undefined', () => {
    expect(
      buildSignature('X', [
        ['a', true],
        ['b', undefined],
        ['c', 3],
      ]),
    ).toBe(`X|a:yes|c:3|version:${VERSION}`)
  })
  it('parses on the first colon only (model tags contain colons)', () => {
    const sig = buildSignature('Judge', [
      ['model', 'llama3.1:8b'],
      ['temp', 0],
    ])
    expect(parseSignature(sig).entries.get('model')).toBe('llama3.1:8b')
  })
  it('round-trips | and % in values', () => {
    const sig = buildSignature('X', [['path', 'a|b%c']])
    expect(sig.split('|')).toHaveLength(3)
    expect(parseSignature(sig).entries.get('path')).toBe('a|b%c')
  })
  it('names the settings that differ', () => {
    expect(signatureDifferences('BLEU|tok:13a|version:1', 'BLEU|tok:intl|version:1')).toEqual([{ key: 'tok', a: '13a', b: 'intl' }])
  })
  it('VERSION equals package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(VERSION).toBe(pkg.version)
  })
})
