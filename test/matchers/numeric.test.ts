// Runs under Vitest AND Jest (globals only).
import { failureOf } from '../helpers/failure.js'

const reference = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
const wrong = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'
const paraphrase = 'On WMT 2014 English-to-German, the big model scored 28.4 BLEU.'

describe('.toStateNumbersOf', () => {
  it('passes on a correct paraphrase', () => {
    expect(paraphrase).toStateNumbersOf(reference)
    expect('The base model uses eight attention heads.').toStateNumbersOf('Each layer uses h = 8 heads.')
  })
  it('fails on the wrong number, naming 41.0 and 28.4', () => {
    const message = failureOf(() => expect(wrong).toStateNumbersOf(reference))
    expect(message).toContain('contradicted: reference "28.4" but answer "41.0"')
    expect(message).toMatch(/signature: NumCheck\|/)
    expect(message).toMatchSnapshot()
  })
  it('reports an omitted number', () => {
    expect(failureOf(() => expect('The big model did well on WMT 2014.').toStateNumbersOf(reference))).toContain('omitted: reference "28.4"')
  })
  it('.not', () => {
    expect(wrong).not.toStateNumbersOf(reference)
    expect(failureOf(() => expect(paraphrase).not.toStateNumbersOf(reference))).toContain('expected it not to')
  })
  it('eval sets: every answer must state its numbers', () => {
    const set = [
      { id: 'ok', answer: paraphrase, reference },
      { id: 'bleu-en-de', answer: wrong, reference },
    ]
    expect([set[0]]).toStateNumbersOf()
    const message = failureOf(() => expect(set).toStateNumbersOf())
    expect(message).toContain('1 of 2 answers state their reference numbers')
    expect(message).toMatch(/bleu-en-de\s+contradicted: reference "28.4" but answer "41.0"/)
  })
  describe('does not depend on word order (issue #26)', () => {
    const sla = 'Enterprise tickets receive a first response within 1 hour.'
    const proFirst = 'Pro tickets receive a first response within 8 business hours and Enterprise tickets within 1 hour.'
    const enterpriseFirst = 'Enterprise tickets receive a first response within 1 hour and Pro tickets within 8 business hours.'
    it('an exact value in another clause is stated, whatever the clause order', () => {
      expect(proFirst).toStateNumbersOf(sla)
      expect(enterpriseFirst).toStateNumbersOf(sla)
    })
    it('.not fails with a message that matches "1" and never contradicts it', () => {
      for (const answer of [proFirst, enterpriseFirst]) {
        const message = failureOf(() => expect(answer).not.toStateNumbersOf(sla))
        expect(message).toContain('the answer states every reference number, expected it not to')
        expect(message).toContain('reference numbers stated correctly: 1 of 1')
        expect(message).toContain('matched: "1" = "1"')
        expect(message).toContain('added by the answer (allowed): "8"')
        expect(message).not.toContain('contradicted')
      }
    })
  })
  it('misuse', () => {
    expect(() => expect(wrong).toStateNumbersOf(42 as never)).toThrow(/Matcher error: reference must be a string/)
    expect(() => expect(7).toStateNumbersOf(reference)).toThrow(/received value must be an answer string/)
  })
})
