// A small corpus with its own ground truth for the framework adapter tests: ids live in metadata (`docId`),
// as they would in a user's pipeline, and every query has graded relevance (2 = answers it, 1 = related).

export const CORPUS: ReadonlyArray<{ readonly docId: string; readonly text: string }> = [
  { docId: 'mercury', text: 'Mercury is the smallest planet and the closest planet to the Sun.' },
  { docId: 'venus', text: 'Venus is the hottest planet because its thick carbon dioxide atmosphere traps heat.' },
  { docId: 'earth', text: 'Earth is the only planet known to support life, with liquid water oceans.' },
  { docId: 'mars', text: 'Mars is called the red planet because iron oxide dust covers its surface.' },
  { docId: 'jupiter', text: 'Jupiter is the largest planet; its Great Red Spot is a giant storm.' },
  { docId: 'saturn', text: 'Saturn has the most spectacular rings, made of ice and rock.' },
  { docId: 'uranus', text: 'Uranus rotates on its side, with an axial tilt of about 98 degrees.' },
  { docId: 'neptune', text: 'Neptune has the fastest winds in the solar system, reaching 2000 km per hour.' },
  { docId: 'moon', text: 'The Moon causes ocean tides on Earth through its gravity.' },
  { docId: 'sun', text: 'The Sun is a star that produces energy by fusing hydrogen into helium.' },
  { docId: 'pluto', text: 'Pluto was reclassified as a dwarf planet in 2006.' },
  { docId: 'comet', text: 'A comet grows a tail of gas and dust when it approaches the Sun.' },
  { docId: 'asteroid', text: 'The asteroid belt lies between the orbits of Mars and Jupiter.' },
  { docId: 'eclipse', text: 'A solar eclipse happens when the Moon passes between the Sun and Earth.' },
]

export const QUERIES: ReadonlyArray<{ readonly id: string; readonly question: string; readonly relevant: Readonly<Record<string, number>> }> = [
  { id: 'rings', question: 'Which planet has rings of ice?', relevant: { saturn: 2 } },
  { id: 'tides', question: 'What causes the ocean tides?', relevant: { moon: 2, earth: 1 } },
  { id: 'red', question: 'Why is Mars the red planet?', relevant: { mars: 2, jupiter: 1 } },
  { id: 'belt', question: 'Where is the asteroid belt?', relevant: { asteroid: 2 } },
  { id: 'fusion', question: 'How does the Sun produce energy from hydrogen?', relevant: { sun: 2 } },
]

const STOPWORDS = new Set('a an and are as at by does for from has how in is it its of on or that the to was what when where which who why with'.split(' '))

/** Lower-cased word tokens without stopwords; a trailing plural `s` is dropped from longer words ("oceans" → "ocean"). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOPWORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w))
}

/** A deterministic bag-of-words embedding: term counts over the corpus vocabulary (no model, no network). */
export function bagOfWords(vocabulary: readonly string[]): (text: string) => number[] {
  const index = new Map(vocabulary.map((w, i) => [w, i]))
  return (text) => {
    const v = new Array<number>(vocabulary.length).fill(0)
    for (const w of words(text)) {
      const i = index.get(w)
      if (i !== undefined) v[i] = (v[i] as number) + 1
    }
    return v
  }
}

export const VOCABULARY: readonly string[] = [...new Set(CORPUS.flatMap((d) => words(d.text)))].sort()
