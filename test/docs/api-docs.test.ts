// docs/api.md is generated from the matcher declarations; this fails when the committed file is stale.
// `npm run docs:api` rewrites it (RAG_WRITE_API_DOCS=1 runs this file in write mode).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderApiDocs } from '../../scripts/api-docs.js'
import { matcherDeclarations } from '../../matchers/all.js'

const file = join(process.cwd(), 'docs', 'api.md')

describe('docs/api.md', () => {
  it('is what the declarations render', async () => {
    const rendered = await renderApiDocs()
    if (process.env.RAG_WRITE_API_DOCS === '1') writeFileSync(file, rendered)
    expect(readFileSync(file, 'utf8')).toBe(rendered)
  })
  it('has a section, an example and options for every matcher', async () => {
    const text = readFileSync(file, 'utf8')
    for (const d of matcherDeclarations) {
      expect(text).toContain(`### ${d.name}\n`)
      for (const form of d.forms) for (const key of Object.keys(form.options ?? {})) expect(text).toContain(`| \`${key}\` |`)
    }
    expect(text.match(/\*\*A failure message\*\*/g)?.length).toBe(matcherDeclarations.length)
  })
  it('is linked from README', () => {
    expect(readFileSync(join(process.cwd(), 'README.md'), 'utf8')).toContain('(https://github.com/example/rag-matchers/blob/main/docs/api.md)')
  })
})
