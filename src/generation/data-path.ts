import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, parse } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The npm package name whose root holds the `data/` folder. */
export const PACKAGE_NAME = 'rag-matchers'

/**
 * The folder of this module, whichever way it was loaded.
 *
 * ESM (source under Vitest, `dist/**.js`) has `import.meta.url`; the tsup CJS build replaces
 * `import.meta` by an empty object, where CommonJS's `__dirname` is defined instead. A bundler may
 * also have moved this code into a single file at `dist/`, which is why callers search upward
 * rather than assuming a fixed depth.
 */
export function moduleDirectory(): string | undefined {
  try {
    const url: unknown = import.meta.url
    if (typeof url === 'string' && url.startsWith('file:')) return dirname(fileURLToPath(url))
  } catch {
    // no import.meta here: fall through to __dirname
  }
  return typeof __dirname === 'string' ? __dirname : undefined
}

function isPackageRoot(folder: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: unknown }
    return pkg.name === PACKAGE_NAME
  } catch {
    return false
  }
}

function ancestors(start: string): string[] {
  const out: string[] = []
  let folder = start
  const { root } = parse(folder)
  for (;;) {
    out.push(folder)
    if (folder === root) break
    const parent = dirname(folder)
    if (parent === folder) break
    folder = parent
  }
  return out
}

/**
 * Finds `data/<fileName>` of the rag-matchers package: walks up from `startDirectory` (default: this
 * module's folder, i.e. `src/generation/`, `dist/src/generation/` or wherever a bundle put it) to the
 * first folder that has both `data/<fileName>` and a `package.json` named `rag-matchers`. Without
 * such a folder, the first ancestor that merely has `data/<fileName>` is accepted (a vendored copy
 * without its package.json). Returns `undefined` when nothing is found.
 *
 * @example
 * resolvePackageDataFile('wordnet-3.0-meteor.json.gz') // '/…/rag-matchers/data/wordnet-3.0-meteor.json.gz'
 */
export function resolvePackageDataFile(fileName: string, startDirectory?: string): string | undefined {
  const start = startDirectory ?? moduleDirectory()
  if (start === undefined) return undefined
  let fallback: string | undefined
  for (const folder of ancestors(start)) {
    const candidate = join(folder, 'data', fileName)
    if (!existsSync(candidate)) continue
    if (isPackageRoot(folder)) return candidate
    fallback ??= candidate
  }
  return fallback
}
