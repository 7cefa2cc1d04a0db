// Jest and Vitest write different snapshot headers and escaping; each runner keeps its own folder.
const path = require('node:path')

module.exports = {
  resolveSnapshotPath: (testPath, ext) => path.join(path.dirname(testPath), '__snapshots__', 'jest', path.basename(testPath) + ext),
  resolveTestPath: (snapshotPath, ext) => path.join(path.dirname(snapshotPath), '..', '..', path.basename(snapshotPath, ext)),
  testPathForConsistencyCheck: path.join('test', 'matchers', 'example.test.ts'),
}
