// Matcher tests run under both runners; this registers the matchers the way a Jest user's setup file would.
import '../../runners/jest.js'
