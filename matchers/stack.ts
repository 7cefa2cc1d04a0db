/**
 * Stack trimming for usage errors, so a misused matcher's stack starts at the user's `expect(…)`
 * line rather than in our own frames (a `dist/` chunk, or matchers/ and runners/ in a checkout) and
 * the runner's expect plumbing around them, the way jest-dom's typed errors do. Frames after the
 * first user frame are kept as they are, and a stack with no user frame at all is left whole:
 * trimming may only remove noise, never the one line that says where.
 */
import { dirname, basename, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The file of a V8 stack frame line (`    at fn (/a/b.ts:1:2)`, `    at file:///a/b.js:1:2`), if it names one. */
export function frameFile(line: string): string | undefined {
  const m = /^\s*at (?:async )?(?:[^(]*\((.+):\d+:\d+\)|(.+):\d+:\d+)\s*$/.exec(line)
  const file = m?.[1] ?? m?.[2]
  if (file === undefined) return undefined
  if (file.startsWith('file://')) {
    try {
      return fileURLToPath(file)
    } catch {
      return file
    }
  }
  return file
}

/** Our own folders: the `dist/` this module was bundled into, or matchers/, runners/, src/, cli/ of a checkout. */
function libraryDirs(): readonly string[] {
  const here = new Error().stack
    ?.split('\n')
    .map(frameFile)
    .find((f) => f !== undefined)
  if (here === undefined) return []
  const parts = dirname(here).split(sep)
  const dist = parts.lastIndexOf('dist')
  if (dist >= 0) return [parts.slice(0, dist + 1).join(sep) + sep]
  const dir = dirname(here)
  if (basename(dir) !== 'matchers') return [dir + sep]
  const root = dirname(dir)
  return ['matchers', 'runners', 'src', 'cli'].map((d) => join(root, d) + sep)
}

const OWN_DIRS = libraryDirs()

// The runners' assertion plumbing between the user's line and our matcher (Vitest: @vitest/expect
// and chai; Jest: expect and jest-*), and Node's internals.
const RUNNER_FRAME = /[\\/]node_modules[\\/](?:vitest|@vitest[\\/][^\\/]+|chai|expect|@jest[\\/][^\\/]+|jest-[^\\/]+|tinyspy|tinypool)[\\/]/

/** Whether a frame line is ours. Exported for tests. */
export function isLibraryFrame(line: string, dirs: readonly string[] = OWN_DIRS): boolean {
  const file = frameFile(line)
  return file !== undefined && dirs.some((d) => file.startsWith(d))
}

function isNoise(line: string, dirs: readonly string[]): boolean {
  const file = frameFile(line)
  if (file === undefined) return true // `new Promise (<anonymous>)`, `<anonymous>`, native frames
  return file.startsWith('node:') || RUNNER_FRAME.test(file) || dirs.some((d) => file.startsWith(d))
}

/**
 * Rewrites `error.stack` so its first frame is the caller's: recaptured above `above` (with room
 * for the frames about to be dropped), then leading library and runner frames removed.
 *
 * @example
 * const error = new MatcherUsageError(message)
 * trimLibraryFrames(error, matcherError)
 * throw error
 */
export function trimLibraryFrames<E extends Error>(error: E, above?: (...args: never[]) => unknown, dirs: readonly string[] = OWN_DIRS): E {
  const capture = (Error as { captureStackTrace?: (target: object, fn?: unknown) => void }).captureStackTrace
  if (above !== undefined && capture !== undefined) {
    const limit = Error.stackTraceLimit
    // The runners' plumbing can be a dozen frames deep: keep enough to reach the user's line.
    if (typeof limit === 'number' && limit < 50) Error.stackTraceLimit = 50
    try {
      capture(error, above)
    } finally {
      Error.stackTraceLimit = limit
    }
  }
  const stack = error.stack
  if (typeof stack !== 'string') return error
  // Frames start after the header, which is the (possibly multi-line) message
  const header = `${error.name}: ${error.message}`
  const from = stack.startsWith(header) ? header.split('\n').length : 0
  const lines = stack.split('\n')
  const firstFrame = lines.findIndex((l, i) => i >= from && /^\s+at /.test(l))
  if (firstFrame < 0) return error
  let user = firstFrame
  while (user < lines.length && isNoise(lines[user] as string, dirs)) user += 1
  if (user >= lines.length || user === firstFrame) return error
  const trimmed = [...lines.slice(0, firstFrame), ...lines.slice(user)].join('\n')
  Object.defineProperty(error, 'stack', { value: trimmed, writable: true, configurable: true, enumerable: false })
  return error
}
