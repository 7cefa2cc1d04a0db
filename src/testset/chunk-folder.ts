import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { MetricInputError } from '../errors.js'
import type { CorpusChunk } from '../eval-set/load-dataset.js'

/** Extensions read by {@link chunkFolder}. */
export const CHUNKED_EXTENSIONS = ['.txt', '.md', '.markdown'] as const

/** @default 1000 */
export const DEFAULT_CHUNK_SIZE = 1000

/**
 * Cuts a text into chunks of at most `chunkSize` characters (UTF-16 code units, JavaScript's `length`):
 *
 * 1. line ends become `\n` (CRLF, CR), and the text is split into paragraphs at blank lines (lines of
 *    whitespace only); each paragraph is trimmed, empty ones dropped;
 * 2. consecutive paragraphs are joined with a blank line (`\n\n`) while the chunk stays within the size;
 * 3. a paragraph longer than the size is cut at the last whitespace at or before the limit (or at the
 *    limit when it has none), each piece trimmed.
 *
 * @example chunkText('One.\n\nTwo.\n\nThree is longer.', 12) // ['One.\n\nTwo.', 'Three is', 'longer.']
 */
export function chunkText(text: string, chunkSize = DEFAULT_CHUNK_SIZE): string[] {
  if (typeof text !== 'string') throw new MetricInputError('chunkText', 'text', 'a string', text)
  if (!(Number.isSafeInteger(chunkSize) && chunkSize > 0)) throw new MetricInputError('chunkText', 'chunkSize', 'a positive integer', chunkSize)
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
  const chunks: string[] = []
  let current = ''
  for (const paragraph of paragraphs) {
    for (const piece of splitLong(paragraph, chunkSize)) {
      if (current === '') current = piece
      else if (current.length + 2 + piece.length <= chunkSize) current += `\n\n${piece}`
      else {
        chunks.push(current)
        current = piece
      }
    }
  }
  if (current !== '') chunks.push(current)
  return chunks
}

function splitLong(paragraph: string, size: number): string[] {
  const out: string[] = []
  let rest = paragraph
  while (rest.length > size) {
    const window = rest.slice(0, size + 1)
    const cut = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'), window.lastIndexOf('\t'))
    const at = cut > 0 ? cut : size
    out.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trim()
  }
  if (rest.length > 0) out.push(rest)
  return out.filter((p) => p.length > 0)
}

/**
 * The chunks of a folder of text and Markdown files (`.txt`, `.md`, `.markdown`, found recursively;
 * names starting with `.` and `node_modules` skipped), by {@link chunkText}: files in the order of their
 * relative paths (`/`-separated, compared by code units), read as UTF-8 (a BOM dropped), chunks never
 * crossing a file. A chunk's id is `<relative path>#<n>`, n counting from 1 in each file:
 * `guide/setup.md#3`. The same folder and size always give the same chunks.
 *
 * @throws MetricInputError naming `dir` when it is not a folder or holds no text in such files
 * @example chunkFolder('docs', { chunkSize: 800 })[0] // { id: 'api.md#1', text: '# API\n\n…' }
 */
export function chunkFolder(dir: string, options: { readonly chunkSize?: number } = {}): CorpusChunk[] {
  const fn = 'chunkFolder'
  if (typeof dir !== 'string' || dir === '') throw new MetricInputError(fn, 'dir', 'a folder path', dir)
  let isDir = false
  try {
    isDir = statSync(dir).isDirectory()
  } catch {
    isDir = false
  }
  if (!isDir) throw new MetricInputError(fn, 'dir', 'an existing folder', dir)
  const files: string[] = []
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && CHUNKED_EXTENSIONS.some((ext) => entry.name.toLowerCase().endsWith(ext))) files.push(path)
    }
  }
  walk('')
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const chunks: CorpusChunk[] = []
  for (const file of files) {
    const raw = readFileSync(join(dir, file), 'utf8')
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
    chunkText(text, options.chunkSize ?? DEFAULT_CHUNK_SIZE).forEach((chunk, i) => chunks.push({ id: `${file}#${i + 1}`, text: chunk }))
  }
  if (chunks.length === 0) throw new MetricInputError(fn, 'dir', `a folder with text in ${CHUNKED_EXTENSIONS.join(', ')} files`, dir)
  return chunks
}
