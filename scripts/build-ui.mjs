#!/usr/bin/env node
// Builds the history UI's browser app (ui/app, vanilla TypeScript + uPlot) into dist/ui/app: one
// minified app.js (and the tiny boot.js) bundled by esbuild (tsup's own dependency), app.css (uPlot's stylesheet + ours) and
// index.html. No CDN and no request at run time: everything the page loads is in that folder.
//
//   node scripts/build-ui.mjs [OUTDIR]      (scripts/finish-dist.mjs calls buildUi() after tsup)
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** Writes index.html, app.js, boot.js and app.css into `outDir` (default dist/ui/app); returns their sizes in bytes. */
export async function buildUi(outDir = join(root, 'dist/ui/app')) {
  mkdirSync(outDir, { recursive: true })
  const result = await build({
    // boot.js: the early requests of the index and the page's data (ui/app/boot.ts), run before app.js is parsed
    entryPoints: { app: join(root, 'ui/app/main.ts'), boot: join(root, 'ui/app/boot.ts') },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    legalComments: 'none',
    outdir: outDir,
    logLevel: 'error',
    metafile: true,
  })
  const css = readFileSync(join(root, 'node_modules/uplot/dist/uPlot.min.css'), 'utf8') + '\n' + readFileSync(join(root, 'ui/app/style.css'), 'utf8')
  writeFileSync(join(outDir, 'app.css'), css)
  copyFileSync(join(root, 'ui/app/index.html'), join(outDir, 'index.html'))
  const sizes = Object.fromEntries(Object.entries(result.metafile.outputs).map(([file, o]) => [file, o.bytes]))
  return { outDir, sizes, css: Buffer.byteLength(css) }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildUi(process.argv[2] ? resolve(process.argv[2]) : undefined)
  console.log(`build-ui: ${out.outDir} (${Object.values(out.sizes).join(' + ')} B js, ${out.css} B css)`)
}
