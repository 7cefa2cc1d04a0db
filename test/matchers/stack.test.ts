// Runs under Vitest AND Jest: a misused matcher throws a usage error whose first stack frame is the
// test file's own expect() line, not our matchers/ (or dist/) frames nor the runner's expect plumbing.
import { join } from 'node:path'
import { frameFile, isLibraryFrame, trimLibraryFrames } from '../../matchers/stack.js'

const testPath = expect.getState().testPath as string
const repoRoot = join(testPath, '..', '..', '..')

function thrown(fn: () => unknown): Error {
  try {
    fn()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a throw')
}

async function rejected(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

/** Stack frames only: the message above them is several lines long. */
function frames(error: Error): string[] {
  const header = `${error.name}: ${error.message}`
  const stack = String(error.stack)
  const body = stack.startsWith(header) ? stack.slice(header.length) : stack
  return body.split('\n').filter((l) => /^\s+at /.test(l))
}

const line = (file: string, fn = 'fn') => `    at ${fn} (${file}:10:5)`

describe('usage errors start their stack at the user line', () => {
  it('a bad argument to a sync matcher: first frame is this test file', () => {
    const error = thrown(() => expect({ retrieved: ['a'], relevant: ['a'] }).toHaveRecallAtK(0, 0.5))
    expect(error.name).toBe('MatcherUsageError')
    expect(error.message).toContain('k must be a positive integer')
    expect(frameFile(frames(error)[0] ?? '')).toBe(testPath)
  })

  it('an unknown option, under .not: first frame is this test file', () => {
    const error = thrown(() => expect({ retrieved: ['a'], relevant: ['a'] }).not.toHaveNdcgAtK(3, 0.5, { gian: 'exponential' } as never))
    expect(error.message).toContain("unknown option 'gian'")
    expect(frameFile(frames(error)[0] ?? '')).toBe(testPath)
    expect(frames(error).some((f) => isLibraryFrame(f))).toBe(false)
  })

  it('an async matcher misused: first frame is this test file', async () => {
    const letters = { model: 'letters', embed: (texts: readonly string[]) => Promise.resolve(texts.map((t) => [t.length, 1])) }
    const error = await rejected(() => expect('ab').toBeSemanticallySimilarTo('ab', 2, { embedder: letters } as never))
    expect(error.name).toBe('MatcherUsageError')
    expect(frameFile(frames(error)[0] ?? '')).toBe(testPath)
  })
})

describe('trimLibraryFrames', () => {
  const lib = [join(repoRoot, 'matchers') + '/', join(repoRoot, 'runners') + '/']
  const withStack = (stack: string[]) => {
    const error = new Error('multi\n    at not a frame, part of the message')
    error.stack = ['Error: multi', '    at not a frame, part of the message', ...stack].join('\n')
    return error
  }

  it('drops leading library, runner and native frames, keeps the message and everything after the user frame', () => {
    const user = line('/home/me/app/test/qa.test.ts', 'Object.<anonymous>')
    const later = line(join(repoRoot, 'runners/describe-eval-set.ts'), 'beforeAll')
    const error = withStack([
      line(join(repoRoot, 'matchers/validate.ts'), 'matcherError'),
      line(join(repoRoot, 'matchers/declare.ts'), 'checkCall'),
      line('/home/me/app/node_modules/@vitest/expect/dist/index.js', 'Proxy.<anonymous>'),
      line('/home/me/app/node_modules/chai/index.js', 'Proxy.methodWrapper'),
      '    at new Promise (<anonymous>)',
      user,
      later,
    ])
    trimLibraryFrames(error, undefined, lib)
    expect(String(error.stack).split('\n')).toEqual(['Error: multi', '    at not a frame, part of the message', user, later])
  })

  it('reads file URLs, and recognises a dist/ chunk as ours when the library was bundled', () => {
    expect(frameFile('    at file:///home/me/app/x.test.ts:3:4')).toBe('/home/me/app/x.test.ts')
    expect(frameFile('    at async Promise.all (index 0)')).toBeUndefined()
    const dist = ['/home/me/app/node_modules/rag-matchers/dist/']
    const user = line('/home/me/app/x.test.ts')
    const error = withStack([line('/home/me/app/node_modules/rag-matchers/dist/chunk-AB12.js'), line('/home/me/app/node_modules/rag-matchers/dist/runners/vitest.js'), user])
    trimLibraryFrames(error, undefined, dist)
    expect(frames(error)).toEqual([user])
  })

  it('leaves a stack with no user frame whole, and one that already starts at the user unchanged', () => {
    const only = [line(join(repoRoot, 'matchers/validate.ts')), '    at node:internal/process/task_queues:95:5']
    const error = withStack(only)
    const before = error.stack
    trimLibraryFrames(error, undefined, lib)
    expect(error.stack).toBe(before)
    const direct = withStack([line('/home/me/app/x.test.ts'), line(join(repoRoot, 'matchers/validate.ts'))])
    const same = direct.stack
    trimLibraryFrames(direct, undefined, lib)
    expect(direct.stack).toBe(same)
  })
})
