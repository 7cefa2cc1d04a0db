#!/usr/bin/env node
// The `rag-matchers` command (npx rag-matchers …): a thin launcher for the built CLI.
import { main } from '../dist/cli/main.js'

try {
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin })
} catch (error) {
  process.stderr.write(`rag-matchers: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 70
}
