import { meteorScore, singleMeteorScore } from '../../../src/generation/meteor.js'

// The details build their per-token lists on first read (meteor-details.ts), from a copy of the
// alignment: later calls reuse the alignment buffers and must not change what an earlier score says.
describe('METEOR details read lazily', () => {
  it('a score read after other calls still describes its own alignment', () => {
    const first = meteorScore('the cat runs fast on the mat', ['a dog sat', 'the cat running quick on mat'])
    for (let k = 0; k < 5; k++) meteorScore('something else entirely here now', 'nothing in common at all')
    const d = first.details
    // (what the eager details gave: NLTK aligns the later "the" with the reference's only one)
    expect(d.bestReferenceIndex).toBe(1)
    expect(d.matches.pairs.map((p) => [p.candidate, p.reference, p.stage, p.candidateToken, p.referenceToken])).toEqual([
      [1, 1, 'exact', 'cat', 'cat'],
      [2, 2, 'stem', 'runs', 'running'],
      [3, 3, 'synonym', 'fast', 'quick'],
      [4, 4, 'exact', 'on', 'on'],
      [5, 0, 'exact', 'the', 'the'],
      [6, 5, 'exact', 'mat', 'mat'],
    ])
    expect(d.unmatchedCandidate).toEqual(['the'])
    expect(d.unmatchedReference).toEqual([])
    // read twice: the same arrays
    expect(d.matches.pairs).toBe(d.matches.pairs)
    expect(d.unmatchedCandidate).toBe(d.unmatchedCandidate)
  })

  it('serializes to the plain object the eager details were, keys in order', () => {
    const s = singleMeteorScore('a fast car', 'a quick red car')
    const json = JSON.parse(JSON.stringify(s.details)) as Record<string, unknown>
    expect(Object.keys(json)).toEqual([
      'score',
      'candidateLength',
      'referenceLength',
      'matches',
      'chunks',
      'fragmentation',
      'penalty',
      'precision',
      'recall',
      'fmean',
      'unmatchedCandidate',
      'unmatchedReference',
      'bestReferenceIndex',
      'referenceScores',
      'alpha',
      'beta',
      'gamma',
    ])
    expect(json.matches).toEqual({
      exact: 2,
      stem: 0,
      synonym: 1,
      pairs: [
        { candidate: 0, reference: 0, stage: 'exact', candidateToken: 'a', referenceToken: 'a' },
        { candidate: 1, reference: 1, stage: 'synonym', candidateToken: 'fast', referenceToken: 'quick' },
        { candidate: 2, reference: 3, stage: 'exact', candidateToken: 'car', referenceToken: 'car' },
      ],
    })
    expect(json.unmatchedReference).toEqual(['red'])
    expect(json.score).toBe(s.value)
  })
})
