// Matcher tests run under both runners; this file registers the matchers the way a user's setup file would.
import '../../runners/vitest.js'

// Every property test runs with one fixed seed, so a CI failure replays exactly (an unseeded run once
// failed on a counterexample nobody could reproduce); RAG_PROPERTY_SEED explores other seeds locally.
import fc from 'fast-check'
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(process.env.RAG_PROPERTY_SEED ?? 20261202) })
