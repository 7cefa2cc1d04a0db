/**
 * `rag-matchers ui --export DIR`: the same app as static files, for a CI artifact or GitHub Pages. Each
 * resource the server would answer is written as `data/<name>.js` — its JSON, wrapped in one call
 * (`ragUiData(name, json)`) because a page opened from disk (file://) may not fetch files but may load
 * scripts of its own folder. Compare pages exist for each run against its default base only.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { HistoryError } from '../history/public.js'
import { appFiles } from './app-files.js'
import type { UiResources } from './resources.js'
import { EXPORT_CSP } from './security.js'

/** Marks the page as an export: the app reads data files instead of asking a server. */
export const STATIC_MARKER = '<meta name="rag-ui-mode" content="static">'
/** The served page's marker, as written or as Prettier writes it (`<meta … />`). */
const SERVER_MARKER = /<meta name="rag-ui-mode" content="server"\s*\/?>/

export interface ExportResult {
  readonly files: number
  readonly resources: number
  readonly bytes: number
}

/** The exported page: the served one with the mode switched to static and its policy as a meta tag. */
export function staticIndex(html: string): string {
  if (!SERVER_MARKER.test(html)) throw new Error('the built index.html has no rag-ui-mode marker: rebuild the app (npm run build)')
  return html.replace(SERVER_MARKER, `${STATIC_MARKER}\n<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`)
}

/** Writes the app and every resource into `dir`, which must be missing, empty, or an earlier export. */
export async function exportUi(resources: UiResources, appDir: string, dir: string): Promise<ExportResult> {
  if (existsSync(dir)) {
    const entries = readdirSync(dir)
    const earlier = entries.includes('index.html') && readFileSync(join(dir, 'index.html'), 'utf8').includes(STATIC_MARKER)
    if (entries.length > 0 && !earlier) throw new HistoryError(`${dir} is not empty and is not an earlier export: give an empty or new folder`)
  }
  mkdirSync(dir, { recursive: true })
  let files = 0
  let bytes = 0
  const write = (file: string, content: string | Buffer) => {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content)
    files++
    bytes += Buffer.byteLength(content)
  }
  for (const [path, file] of appFiles(appDir)) {
    const content = readFileSync(file)
    write(join(dir, path.slice(1)), path === '/index.html' ? staticIndex(content.toString('utf8')) : content)
  }
  let count = 0
  for await (const name of resources.allResources()) {
    const value = await resources.get(name)
    write(join(dir, 'data', `${name}.js`), `ragUiData(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`)
    count++
  }
  return { files, resources: count, bytes }
}
