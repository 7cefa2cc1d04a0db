import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadDataset } from '../../src/eval-set/load-dataset.js'
import { REJECTION_REASONS } from '../../src/testset/public.js'
import { runCli } from '../cli/run-cli.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { serverPerTest } from '../helpers/scripted-server.js'
import { CORPUS, ollamaWriter, TIMEOUT_MS } from './scripted-writer.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-testset-cli-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const writeChunks = async (chunks: ReadonlyArray<{ id: unknown; text: unknown }>, name = 'chunks.jsonl') => {
  const path = join(dir, name)
  await writeFile(path, chunks.map((c) => JSON.stringify(c)).join('\n') + '\n')
  return path
}

describe('rag-matchers testset generate', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })

  it('writes a set loadDataset reads, its summary beside it, and prints the rejection table; a replay writes the same bytes', async () => {
    fake.on('/api/chat', () => true, ollamaWriter())
    const chunks = await writeChunks(CORPUS.map(({ id, text }) => ({ id, text })))
    const out = join(dir, 'eval', 'qa.jsonl')
    await rm(join(dir, 'eval'), { recursive: true, force: true })
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(dir, 'eval'))
    const cache = join(dir, 'cache')
    const args = ['testset', 'generate', '--chunks', chunks, '--out', out, '--judge', 'ollama:llama3.1:8b', '-n', '13', '--kinds', 'factual=11,numeric=2', '--cache', cache]
    const first = await runCli([...args, '--host', fake.host, '--timeout-ms', String(TIMEOUT_MS)])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('kept 4 of 13 requested (the corpus ran out of chunks')
    for (const reason of REJECTION_REASONS) expect(first.stdout).toMatch(new RegExp(`^  ${reason} +\\d+$`, 'm'))
    expect(first.stdout).toMatch(/^ {2}keyword-not-in-chunk +1$/m)
    const items = loadDataset(out)
    expect(items).toHaveLength(4)
    const summary = JSON.parse(await readFile(join(dir, 'eval', 'qa.summary.json'), 'utf8'))
    expect(summary.summary.kept).toBe(4)
    expect(summary.rejected).toHaveLength(9)
    // No temporary file is left beside the outputs.
    expect((await readdir(join(dir, 'eval'))).sort()).toEqual(['qa.jsonl', 'qa.summary.json'])
    const bytes = await readFile(out, 'utf8')

    const asked = fake.requests.length
    const replay = await runCli([...args, '--cache-mode', 'replay', '--host', 'http://127.0.0.1:9'])
    expect(replay.code).toBe(0)
    expect(fake.requests).toHaveLength(asked)
    expect(await readFile(out, 'utf8')).toBe(bytes)
  })

  it('an unreachable model is an input error and leaves no file', async () => {
    const chunks = await writeChunks([{ id: 'a', text: 'alpha' }])
    const out = join(dir, 'qa.jsonl')
    const result = await runCli([
      'testset',
      'generate',
      '--chunks',
      chunks,
      '--out',
      out,
      '--judge',
      'ollama:m',
      '--host',
      'http://127.0.0.1:9',
      '-n',
      '1',
      '--cache-mode',
      'off',
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('the model cannot be used (unreachable)')
    expect(await readdir(dir)).toEqual(['chunks.jsonl'])
  })
})

describe('rag-matchers testset generate: a set that cannot be written', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })

  it('exit 2, and no temporary or partial file is left under the name', async () => {
    fake.on('/api/chat', () => true, ollamaWriter())
    const chunks = await writeChunks(CORPUS.filter((c) => c.expect === 'kept').map(({ id, text }) => ({ id, text })))
    // The set's name is taken by a folder: its temporary file is written, then cannot be renamed into place.
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(dir, 'qa.jsonl'))
    const result = await runCli([
      'testset',
      'generate',
      '--chunks',
      chunks,
      '--out',
      join(dir, 'qa.jsonl'),
      '--judge',
      'ollama:m',
      '--host',
      fake.host,
      '--cache',
      join(dir, 'cache'),
      '-n',
      '1',
      '--kinds',
      'factual',
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`cannot write '${join(dir, 'qa.jsonl')}'`)
    expect(await readdir(join(dir, 'qa.jsonl'))).toEqual([])
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
})

describe('rag-matchers testset generate: bad input and usage', () => {
  it.each([
    ['an empty corpus', [], '1', 'Expected `chunks` to be a non-empty array'],
    ['a chunk without an id', [{ text: 'x' }], '1', '`id`'],
    [
      'duplicate ids',
      [
        { id: 'a', text: 'x' },
        { id: 'a', text: 'y' },
      ],
      '1',
      'unique within the corpus',
    ],
    ['-n larger than the corpus supports', [{ id: 'a', text: 'x' }], '2', 'Expected `n` to be at most what the corpus supports'],
  ])('%s: exit 2, no file', async (_name, chunkList, n, message) => {
    const chunks = await writeChunks(chunkList as never)
    const out = join(dir, 'qa.jsonl')
    const result = await runCli([
      'testset',
      'generate',
      '--chunks',
      chunks,
      '--out',
      out,
      '--judge',
      'ollama:m',
      '--host',
      'http://127.0.0.1:9',
      '-n',
      n,
      '--kinds',
      'factual',
    ])
    expect(result.stderr).toContain(message)
    expect(result.code).toBe(2)
    expect(await readdir(dir)).toEqual(['chunks.jsonl'])
  })

  it('a corpus folder that does not exist: exit 2, naming it', async () => {
    const result = await runCli(['testset', 'generate', '--corpus', join(dir, 'none'), '--out', join(dir, 'qa.jsonl'), '--judge', 'ollama:m'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Expected `dir` to be an existing folder')
  })

  it('a chunks file that does not exist: exit 2', async () => {
    const result = await runCli(['testset', 'generate', '--chunks', join(dir, 'none.jsonl'), '--out', join(dir, 'qa.jsonl'), '--judge', 'ollama:m'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('ENOENT')
  })

  it.each([
    [['generate', '--out', 'x.jsonl', '--judge', 'ollama:m'], 'give either --chunks FILE or --corpus DIR'],
    [['generate', '--chunks', 'c.jsonl', '--corpus', 'd', '--out', 'x.jsonl', '--judge', 'ollama:m'], 'give either --chunks FILE or --corpus DIR'],
    [['generate', '--chunks', 'c.jsonl', '--chunk-size', '100', '--out', 'x.jsonl', '--judge', 'ollama:m'], '--chunk-size goes with --corpus'],
    [['generate', '--chunks', 'c.jsonl', '--out', 'x.jsonl', '--judge', 'gpt'], '--judge needs ollama:MODEL or openai:MODEL'],
    [['generate', '--chunks', 'c.jsonl', '--out', 'x.jsonl', '--judge', 'ollama:m', '-n', '0'], '-n needs an integer ≥ 1'],
    [['generate', '--chunks', 'c.jsonl', '--out', 'x.jsonl', '--judge', 'ollama:m', '--kinds', 'opinion'], 'unknown kind "opinion"'],
    [['generate', '--chunks', 'c.jsonl', '--out', 'x.jsonl', '--judge', 'ollama:m', '--kinds', 'unanswerable=x'], 'the weight of unanswerable must be a number'],
    [['generate', '--chunks', 'c.jsonl', '--out', 'x.jsonl', '--judge', 'ollama:m', '--concurrency', 'two'], '--concurrency needs an integer ≥ 1'],
    [['generate', '--chunks', 'c.jsonl', '--out', 'x.jsonl', '--judge', 'ollama:m', '--frobnicate'], 'unknown option --frobnicate'],
    [['make'], 'unknown subcommand "make"'],
    [[], 'usage: rag-matchers testset generate'],
  ])('usage error %j: exit 1', async (argv, message) => {
    const result = await runCli(['testset', ...argv])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(message)
  })
})

describe('rag-matchers testset generate --corpus', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })

  it('chunks a folder by paragraphs and writes questions whose relevant ids are PATH#N', async () => {
    const corpus = join(dir, 'corpus')
    const { mkdir } = await import('node:fs/promises')
    await mkdir(corpus)
    // The scripted corpus as two files, one chunk per paragraph (each paragraph is shorter than the size).
    await writeFile(
      join(corpus, 'a.md'),
      CORPUS.slice(0, 7)
        .map((c) => c.text.replace('\n', ' '))
        .join('\n\n'),
    )
    await writeFile(
      join(corpus, 'b.txt'),
      CORPUS.slice(7)
        .map((c) => c.text)
        .join('\n\n'),
    )
    const writer = ollamaWriter(CORPUS.map((c, i) => ({ ...c, text: i < 7 ? c.text.replace('\n', ' ') : c.text })))
    fake.on('/api/chat', () => true, writer)
    const out = join(dir, 'qa.jsonl')
    const result = await runCli([
      'testset',
      'generate',
      '--corpus',
      corpus,
      '--chunk-size',
      '90',
      '--out',
      out,
      '--judge',
      'ollama:m',
      '--host',
      fake.host,
      '--timeout-ms',
      String(TIMEOUT_MS),
      '-n',
      '13',
      '--kinds',
      'factual=11,numeric=2',
      // A cache in the test's folder: the default one is in the working directory (the repository).
      '--cache',
      join(dir, 'cache'),
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const items = loadDataset(out)
    expect(items.map((i) => i.source)).toContainEqual(['a.md#2'])
    expect(items).toHaveLength(4)
    // "Helios Core" is in a.md's first paragraph and b.txt's last: both are relevant when that question is kept.
    const reactor = items.find((i) => i.keyword === 'Helios Core')
    if (reactor !== undefined) expect(reactor.relevant).toEqual(['a.md#1', 'b.txt#6'])
    expect(items.find((i) => i.keyword === 'decontamination gate')?.relevant).toEqual(['b.txt#6'])
  })
})
