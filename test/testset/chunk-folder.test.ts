import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MetricInputError } from '../../src/errors.js'
import { chunkFolder, chunkText } from '../../src/testset/chunk-folder.js'

describe('chunkText', () => {
  it('packs paragraphs up to the size and cuts a long one at whitespace', () => {
    expect(chunkText('One.\n\nTwo.\n\nThree is longer.', 12)).toEqual(['One.\n\nTwo.', 'Three is', 'longer.'])
    expect(chunkText('a\r\n\r\nb\r\n  \r\nc', 100)).toEqual(['a\n\nb\n\nc'])
    expect(chunkText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij'])
    expect(chunkText('  \n\n ', 10)).toEqual([])
  })
  it('never makes a chunk longer than the size', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(i % 7)}end.`).join('\n\n')
    for (const size of [5, 17, 40, 120]) for (const chunk of chunkText(text, size)) expect(chunk.length).toBeLessThanOrEqual(size)
  })
  it('refuses a size that is not a positive integer', () => {
    expect(() => chunkText('x', 0)).toThrow(MetricInputError)
  })
})

describe('chunkFolder', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rag-chunk-folder-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('reads .txt and .md files in path order, ids path#n, skipping dot files and other extensions', async () => {
    await mkdir(join(dir, 'guide'))
    await mkdir(join(dir, '.git'))
    await writeFile(join(dir, 'guide', 'setup.md'), '\ufeff# Setup\n\nInstall it.\n\nRun it.')
    await writeFile(join(dir, 'about.txt'), 'About us.')
    await writeFile(join(dir, 'image.png'), 'not text')
    await writeFile(join(dir, '.git', 'notes.md'), 'hidden')
    expect(chunkFolder(dir, { chunkSize: 20 })).toEqual([
      { id: 'about.txt#1', text: 'About us.' },
      { id: 'guide/setup.md#1', text: '# Setup\n\nInstall it.' },
      { id: 'guide/setup.md#2', text: 'Run it.' },
    ])
  })

  it('refuses a missing folder or one without text, naming dir', async () => {
    expect(() => chunkFolder(join(dir, 'none'))).toThrow(/`dir`/)
    await writeFile(join(dir, 'image.png'), 'x')
    expect(() => chunkFolder(dir)).toThrow(/`dir` to be a folder with text/)
  })
})
