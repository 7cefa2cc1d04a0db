// A temp folder per CLI test file, for the files the commands read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TempFiles {
  /** Puts a file in the folder and returns its path. */
  write: (name: string, text: string | Uint8Array) => string
  path: (name: string) => string
  cleanup: () => void
}

/** A temp folder for one test file; `write` puts a file in it and returns its path. */
export function tempFiles(prefix: string): TempFiles {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return {
    write: (name, text) => {
      const path = join(dir, name)
      writeFileSync(path, text)
      return path
    },
    path: (name) => join(dir, name),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
