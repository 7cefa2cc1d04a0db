// The child-process baseline tests run src/eval-set/baseline-file.ts in plain Node processes: it is bundled
// into one ESM file in the test's temp folder first.
import { bundleModule } from '../../helpers/bundle.js'

/** Bundles baseline-file.ts into `dir` and returns the bundle's path. */
export function bundleBaselineFile(dir: string): Promise<string> {
  return bundleModule(new URL('../../../src/eval-set/baseline-file.ts', import.meta.url), dir, 'baseline-file.bundle.mjs')
}
