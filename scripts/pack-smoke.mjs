// Packs rag-matchers, installs the tarball into a fresh project in a temp folder, and runs a Vitest
// suite (ESM, `rag-matchers/vitest`) and Jest suites (CJS, `rag-matchers/jest` and
// `rag-matchers/jest-globals`, and TypeScript through @swc/jest, the transform README names) there.
// Exits non-zero when any of them fails.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(new URL('..', import.meta.url).pathname)
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const work = mkdtempSync(join(tmpdir(), 'rag-matchers-pack-'))
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } })

try {
  run('npm', ['pack', '--pack-destination', work, '--silent'], root)
  const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`)
  const project = join(work, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'commonjs' }, null, 2))
  const dev = pkg.devDependencies
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
      `vitest@${dev.vitest}`,
      `jest@${dev.jest}`,
      `@jest/globals@${dev['@jest/globals']}`,
      `@swc/core@${dev['@swc/core']}`,
      `@swc/jest@${dev['@swc/jest']}`,
    ],
    project,
  )

  const retrievalCases = `
    const good = { retrieved: ['d2', 'd4', 'd9'], relevant: { d2: 1, d4: 2 } }
    const bad = { retrieved: ['d7', 'd2', 'd9'], relevant: ['d4'] }
  `
  // Vitest, ESM test file, setup through the package's vitest entry.
  writeFileSync(join(project, 'vitest.config.mjs'), `export default { test: { setupFiles: ['rag-matchers/vitest'], include: ['*.vitest.test.mjs'] } }\n`)
  writeFileSync(
    join(project, 'smoke.vitest.test.mjs'),
    `import { test, expect } from 'vitest'
import { ndcgAtK, meteorScore, VERSION } from 'rag-matchers'
import { describeEvalSet } from 'rag-matchers/vitest'
import { ndcgAtK as retrievalEntry } from 'rag-matchers/retrieval'
import { meteorScore as generationEntry } from 'rag-matchers/generation'
import { groundedness as judgeEntry } from 'rag-matchers/judge'
import { cohenKappa as agreementEntry } from 'rag-matchers/agreement'
import { runEvalSet as evalSetEntry } from 'rag-matchers/eval-set'
import { buildReport as reportEntry } from 'rag-matchers/report'
import { generateEvalSet as testsetEntry } from 'rag-matchers/testset'
${retrievalCases}
test('family subpath entries resolve (ESM)', () => {
  for (const fn of [retrievalEntry, generationEntry, judgeEntry, agreementEntry, evalSetEntry, reportEntry, testsetEntry]) expect(typeof fn).toBe('function')
  expect(retrievalEntry).toBe(ndcgAtK)
})
test('matchers registered from rag-matchers/vitest', () => {
  expect(good).toHaveNdcgAtK(3, 0.7)
  expect(bad).not.toHitWithin(3)
  expect(() => expect(bad).toHaveNdcgAtK(3, 0.7)).toThrow(/nDCG@3 = \\S*0\\.0000/)
  expect(ndcgAtK(good, 3).signature).toContain('version:' + VERSION)
})
// No \`globals: true\` here: the entry's describeEvalSet binds Vitest's own describe/beforeAll.
describeEvalSet('smoke set', { dataset: [{ id: 'q1', question: 'q', relevant: ['d2'] }], pipeline: () => ({ retrieved: ['d2', 'd4'] }) }, (run) => {
  test('describeEvalSet from rag-matchers/vitest runs without globals', () => expect(run).toHaveRecallAtK(1, 1))
})
// The optional peers (openai, @langchain/core, llamaindex) are not installed here: everything else
// must import and run, the adapters must load without them, and a provider judge names what is missing.
test('runs without the optional peers installed', async () => {
  const { createRequire } = await import('node:module')
  const require = createRequire(import.meta.url)
  for (const peer of ['openai', '@langchain/core', 'llamaindex']) expect(() => require.resolve(peer)).toThrow()
  const { fromLangChainDocuments } = await import('rag-matchers/adapters')
  expect({ retrieved: fromLangChainDocuments([{ pageContent: 'x', metadata: { id: 'd2' } }], { id: 'id' }), relevant: ['d2'] }).toHitWithin(1)
  const { openaiJudge, groundedness } = await import('rag-matchers')
  const judge = openaiJudge({ model: 'gpt-4o-mini', baseURL: 'http://127.0.0.1:9/v1', retries: 0 })
  await expect(groundedness('The sky is blue.', ['The sky is blue.'], judge)).rejects.toThrow(/openai/)
})
test('METEOR loads its WordNet data from the installed package (ESM)', () => {
  expect(meteorScore('the kid is quick', 'the child is fast').details.matches.synonym).toBe(2)
  expect('The big model scored 41.0 BLEU.').not.toStateNumbersOf('The big model scored 28.4 BLEU.')
})
`,
  )
  run('npx', ['vitest', 'run'], project)

  // Jest, CommonJS test file, global expect through rag-matchers/jest.
  writeFileSync(join(project, 'jest.config.js'), `module.exports = { testMatch: ['**/*.jest.test.js'], setupFilesAfterEnv: ['rag-matchers/jest'] }\n`)
  writeFileSync(
    join(project, 'smoke.jest.test.js'),
    `const { ndcgAtK, meteorScore } = require('rag-matchers')
const { ndcgAtK: retrievalEntry } = require('rag-matchers/retrieval')
const { meteorScore: generationEntry } = require('rag-matchers/generation')
const { groundedness: judgeEntry } = require('rag-matchers/judge')
const { cohenKappa: agreementEntry } = require('rag-matchers/agreement')
const { runEvalSet: evalSetEntry } = require('rag-matchers/eval-set')
const { buildReport: reportEntry } = require('rag-matchers/report')
const { generateEvalSet: testsetEntry } = require('rag-matchers/testset')
${retrievalCases}
test('family subpath entries resolve (CJS)', () => {
  for (const fn of [retrievalEntry, generationEntry, judgeEntry, agreementEntry, evalSetEntry, reportEntry, testsetEntry]) expect(typeof fn).toBe('function')
  expect(retrievalEntry).toBe(ndcgAtK)
})
test('matchers registered from rag-matchers/jest', () => {
  expect(good).toHaveNdcgAtK(3, 0.7)
  expect(bad).not.toHitWithin(3)
  expect(() => expect(bad).toHaveNdcgAtK(3, 0.7)).toThrow(/nDCG@3 = \\S*0\\.0000/)
  expect(ndcgAtK(good, 3).value).toBeGreaterThan(0.7)
})
test('METEOR loads its WordNet data from the installed package (CJS)', () => {
  expect(meteorScore('the kid is quick', 'the child is fast').details.matches.synonym).toBe(2)
  expect('the kid is quick').toScoreMeteorAbove('the child is fast', 0.5)
})
`,
  )
  writeFileSync(join(project, 'jest-globals.config.js'), `module.exports = { testMatch: ['**/*.globals.test.js'], setupFilesAfterEnv: ['rag-matchers/jest-globals'] }\n`)
  writeFileSync(
    join(project, 'smoke.globals.test.js'),
    `const { expect, test } = require('@jest/globals')
${retrievalCases}
test('matchers registered from rag-matchers/jest-globals', () => {
  expect(good).toHaveNdcgAtK(3, 0.7)
  expect(bad).not.toHitWithin(3)
})
`,
  )
  run('npx', ['jest', '--ci'], project)
  run('npx', ['jest', '--ci', '--config', 'jest-globals.config.js'], project)
  // Jest + TypeScript through @swc/jest, configured as README's Jest quick start shows.
  writeFileSync(
    join(project, 'jest-swc.config.js'),
    `module.exports = {
  testMatch: ['**/*.swc.test.ts'],
  setupFilesAfterEnv: ['rag-matchers/jest'],
  transform: { '^.+\\\\.tsx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' } } }] },
}
`,
  )
  writeFileSync(
    join(project, 'smoke.swc.test.ts'),
    `import { describeEvalSet } from 'rag-matchers/jest'
import type { RetrievalCase } from 'rag-matchers/retrieval'

const good: RetrievalCase = { retrieved: ['d2', 'd4', 'd9'], relevant: { d2: 1, d4: 2 } }
test('a TypeScript test file through @swc/jest', () => {
  const k: number = 3
  expect(good).toHaveNdcgAtK(k, 0.7)
})
describeEvalSet('swc set', { dataset: [{ id: 'q1', question: 'q', relevant: ['d2'] }], pipeline: () => ({ retrieved: ['d2'] }) }, (run) => {
  test('describeEvalSet from rag-matchers/jest', () => expect(run).toHitWithin(1))
})
`,
  )
  run('npx', ['jest', '--ci', '--config', 'jest-swc.config.js'], project)
  // The bin: `npx rag-matchers trec` on a tiny qrels/run pair.
  writeFileSync(join(project, 'qrels.txt'), '1 0 d1 1\n1 0 d2 0\n')
  writeFileSync(join(project, 'run.txt'), '1 Q0 d2 1 2.0 r\n1 Q0 d1 2 1.0 r\n')
  const out = execFileSync('npx', ['rag-matchers', 'trec', 'qrels.txt', 'run.txt', '-m', 'recip_rank'], { cwd: project, encoding: 'utf8' })
  if (!/^recip_rank\s+all\s+0\.5000$/m.test(out)) throw new Error(`unexpected trec output:\n${out}`)
  console.log('package smoke test: 5 passed, 0 failed')
} finally {
  rmSync(work, { recursive: true, force: true })
}
