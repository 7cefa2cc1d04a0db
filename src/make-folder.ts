/**
 * `mkdir -p` that reports the real cause. Node's recursive mkdir answers ENOENT when a missing folder
 * cannot be created on a read-only file system (it stats the folder after the failed mkdir), so a user
 * would read "no such file or directory" for EROFS, EACCES or ENOTDIR. On ENOENT the first missing folder
 * is created on its own, which throws the real error; if that succeeds, the original error stands. The
 * one implementation behind the report folder, the baseline folder and the judge cache folder.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

/** The outermost folder of `dir` that does not exist yet (`dir` itself when only it is missing). */
function firstMissing(dir: string): string {
  let missing = resolve(dir)
  while (dirname(missing) !== missing && !existsSync(dirname(missing))) missing = dirname(missing)
  return missing
}

/**
 * @throws the error of the folder that cannot be created (EROFS, EACCES, ENOTDIR…), never a bare ENOENT for it
 * @example makeFolderSync('out/rag-report')
 */
export function makeFolderSync(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    mkdirSync(firstMissing(dir))
    throw error
  }
}

/** {@link makeFolderSync}, for async writers. */
export async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    await mkdir(firstMissing(dir))
    throw error
  }
}
