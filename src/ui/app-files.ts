/**
 * The browser app's files: built by scripts/build-ui.mjs into dist/ui/app (index.html, app.js,
 * app.css). The server serves exactly the files listed here and the export copies them, so a URL can
 * name nothing else on the machine.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

/**
 * The built app folder: next to this module in the package (dist/ui/app from dist/ or a dist/ chunk),
 * else dist/ui/app above it (running from the sources after `npm run build`). Undefined when not built.
 */
export function findAppDir(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'ui', 'app'), join(dir, 'dist', 'ui', 'app')]) {
      if (existsSync(join(candidate, 'index.html')) && existsSync(join(candidate, 'app.js'))) return candidate
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** URL path (`/app.js`) → file, for every regular file under `appDir` with a known content type. */
export function appFiles(appDir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name)
      const st = statSync(file)
      if (st.isDirectory()) walk(file)
      else if (st.isFile() && CONTENT_TYPES[extname(name)] !== undefined) out.set(`/${relative(appDir, file).split(sep).join('/')}`, file)
    }
  }
  walk(appDir)
  return out
}
