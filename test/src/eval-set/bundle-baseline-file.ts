// The child-process baseline tests run src/eval-set/baseline-file.ts in plain Node processes: it is bundled
// into one ESM file in the test's temp folder first.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** Bundles baseline-file.ts into `dir` and returns the bundle's path. */
export async function bundleBaselineFile(dir: string): Promise<string> {
  const bundle = join(dir, 'baseline-file.bundle.mjs')
  await build({
    entryPoints: [fileURLToPath(new URL('../../../src/eval-set/baseline-file.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
  })
  return bundle
}
