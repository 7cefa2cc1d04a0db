// Tests that run a source module in a plain Node process or a worker thread (neither can import TypeScript)
// bundle it into one ESM file with esbuild first.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** Bundles the module at `source` into `dir/name` and returns the bundle's path. */
export async function bundleModule(source: URL, dir: string, name: string): Promise<string> {
  const bundle = join(dir, name)
  await build({ entryPoints: [fileURLToPath(source)], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' })
  return bundle
}
