// The runtime declarations (matchers/*.ts, collected in all.ts) and the TypeScript signatures
// (matchers/types.ts, type-tested per runner) are written separately; this reads the signatures with
// the TypeScript compiler and checks that both name the same matchers, arguments and option keys.
import { join } from 'node:path'
import ts from 'typescript'
import { matcherDeclarations } from '../matchers/all.js'

const repo = process.cwd()
const fixture = join(repo, 'test/fixtures/declared-signatures.ts')
const program = ts.createProgram([fixture], {
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  types: ['node'],
})
const checker = program.getTypeChecker()
const source = program.getSourceFile(fixture)!
const symbol = checker.getSymbolAtLocation(source)!
const allForms = checker.getExportsOfModule(symbol).find((s) => s.name === 'AllForms')!
const declared = checker.getDeclaredTypeOfSymbol(allForms)

function typed(name: string): { args: string[]; options: string[] } {
  const prop = declared.getProperty(name)
  if (prop === undefined) return { args: [], options: [] }
  const type = checker.getTypeOfSymbolAtLocation(prop, source)
  const args = new Set<string>()
  const options = new Set<string>()
  const add = (paramName: string, paramType: ts.Type) => {
    if (paramName !== 'options') {
      args.add(paramName)
      return
    }
    const t = checker.getNonNullableType(paramType)
    for (const member of t.isUnion() ? t.types : [t]) for (const p of checker.getPropertiesOfType(member)) options.add(p.name)
  }
  for (const sig of type.getCallSignatures()) {
    for (const param of sig.getParameters()) {
      const paramType = checker.getTypeOfSymbolAtLocation(param, source)
      // `(...args: [references: …, min: …])`: a rest tuple with labelled elements (ByReceived's forms).
      if (checker.isTupleType(paramType)) {
        const target = (paramType as ts.TupleTypeReference).target
        const elements = checker.getTypeArguments(paramType as ts.TypeReference)
        target.labeledElementDeclarations?.forEach((d, i) => d && add(d.name.getText(), elements[i] as ts.Type))
        continue
      }
      add(param.name, paramType)
    }
  }
  return { args: [...args].sort(), options: [...options].sort() }
}

describe('declarations and type signatures', () => {
  it('name the same matchers', () => {
    const names = checker
      .getPropertiesOfType(declared)
      .map((p) => p.name)
      .sort()
    expect(matcherDeclarations.map((d) => d.name).sort()).toEqual(names)
    expect(names.length).toBeGreaterThan(20)
  })
  it.each(matcherDeclarations.map((d) => [d.name, d] as const))('%s: same arguments and option keys', (name, decl) => {
    const args = [...new Set(decl.forms.flatMap((f) => f.args.map((a) => a.name)))].sort()
    const options = [...new Set(decl.forms.flatMap((f) => Object.keys(f.options ?? {})))].sort()
    expect({ args, options }).toEqual(typed(name))
  })
})

describe('matcher options that go to a core function use its option names', () => {
  it.each([
    ['toScoreBleuAbove', () => import('../src/generation/bleu.js').then((m) => m.BLEU_OPTION_KEYS)],
    ['toScoreChrfAbove', () => import('../src/generation/chrf.js').then((m) => m.CHRF_OPTION_KEYS)],
    ['toScoreTerBelow', () => import('../src/generation/ter/ter.js').then((m) => m.TER_OPTION_KEYS)],
    ['toScoreMeteorAbove', () => import('../src/generation/meteor.js').then((m) => m.METEOR_OPTION_KEYS)],
    ['toStateNumbersOf', () => import('../src/generation/numeric-consistency.js').then((m) => m.NUMERIC_CONSISTENCY_OPTION_KEYS)],
    ['toHaveNdcgAtK', () => import('../src/retrieval/ndcg.js').then((m) => m.NDCG_OPTION_KEYS)],
    ['toHaveRecallAtK', () => import('../src/retrieval/ranking.js').then((m) => m.RETRIEVAL_OPTION_KEYS)],
    ['toHavePrecisionAtK', () => import('../src/retrieval/ranking.js').then((m) => m.RETRIEVAL_OPTION_KEYS)],
    ['toHaveMrrAbove', () => import('../src/retrieval/ranking.js').then((m) => m.RETRIEVAL_OPTION_KEYS)],
    ['toHaveMapAtK', () => import('../src/retrieval/ranking.js').then((m) => m.RETRIEVAL_OPTION_KEYS)],
    ['toHitWithin', () => import('../src/retrieval/ranking.js').then((m) => m.RETRIEVAL_OPTION_KEYS)],
    ['toHaveHitRateAtK', () => import('../src/retrieval/ranking.js').then((m) => m.RETRIEVAL_OPTION_KEYS)],
  ] as const)('%s', async (name, coreKeys) => {
    const decl = matcherDeclarations.find((d) => d.name === name)!
    // `failedCases` belongs to an eval set's form: it says what to do with a case whose pipeline failed,
    // before any core function is called. `steps` (retrieval matchers) turns an agent's retrieval steps
    // into the rankings the core scores, also before it is called.
    for (const form of decl.forms) {
      const keys = Object.keys(form.options ?? {}).filter((key) => key !== 'failedCases' && key !== 'steps')
      expect(keys.sort()).toEqual([...(await coreKeys())].sort())
    }
  })
})
