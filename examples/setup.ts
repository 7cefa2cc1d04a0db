// What a user's Vitest setup file holds: `import 'rag-matchers/vitest'`. Inside this repository the
// example imports the source directly, so it runs without a build.
import '../runners/vitest.js'
