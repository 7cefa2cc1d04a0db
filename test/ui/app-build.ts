// The browser app built once into a temp folder by the real build step (scripts/build-ui.mjs), so the
// UI tests do not depend on an earlier `npm run build`.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

let built: Promise<string> | undefined

export function builtApp(): Promise<string> {
  built ??= (async () => {
    const { buildUi } = (await import('../../scripts/build-ui.mjs')) as { buildUi: (out: string) => Promise<{ outDir: string }> }
    return (await buildUi(join(mkdtempSync(join(tmpdir(), 'rag-ui-app-')), 'app'))).outDir
  })()
  return built
}
