import { COMMANDS, EXIT, main } from '../../cli/main.js'
import { VERSION } from '../../src/version.js'
import { runCli } from './run-cli.js'

describe('rag-matchers (subcommand dispatch)', () => {
  it('lists the commands on --help (exit 0) and on no arguments (exit 1, stderr)', async () => {
    const help = await runCli(['--help'])
    expect(help.code).toBe(EXIT.ok)
    expect(help.stdout).toContain('Usage: rag-matchers <command> [options]')
    expect(help.stdout).toMatch(/\n {2}trec +evaluate a TREC run/)
    const bare = await runCli([])
    expect([bare.code, bare.stdout]).toEqual([EXIT.usage, ''])
    expect(bare.stderr).toBe(help.stdout)
  })

  it('prints the version', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `rag-matchers ${VERSION}\n`, stderr: '' })
  })

  it('rejects an unknown command with exit 1', async () => {
    const out = await runCli(['bleu-nope'])
    expect(out.code).toBe(EXIT.usage)
    expect(out.stderr).toMatch(/^rag-matchers: unknown command 'bleu-nope'\n/)
    expect((await runCli(['toString'])).code).toBe(EXIT.usage)
  })

  it('loads each registered command lazily as a module with run(argv, io)', async () => {
    expect(Object.keys(COMMANDS)).toContain('trec')
    for (const entry of Object.values(COMMANDS)) {
      expect(typeof (await entry.load()).run).toBe('function')
    }
  })

  it('reports an exception escaping a command as an internal error (exit 70)', async () => {
    let stderr = ''
    const io = {
      stdout: {
        write: () => {
          throw new Error('stdout closed')
        },
      },
      stderr: { write: (s: string) => ((stderr += s), true) },
    }
    expect(await main(['trec', '--help'], io)).toBe(EXIT.internal)
    expect(stderr).toContain('rag-matchers trec: internal error: Error: stdout closed')
  })
})
