// Matcher tests run under both runners; this file registers the matchers the way a user's setup file would.
import '../../runners/vitest.js'
