/**
 * The `rag-matchers` command line: `rag-matchers <command> [args]`. Each subcommand is a module exporting
 * `run(argv, io)`, loaded only when invoked; adding one is one line in {@link COMMANDS}.
 *
 * Exit codes (shared by every subcommand; trec_eval's own codes where they overlap):
 *   0  success
 *   1  usage: unknown command or option, bad option value, unknown measure
 *   2  input: a file cannot be read, or a line is malformed (the message names file and line)
 *   4  evaluation refused: duplicate docno in a topic, qrels topic without results (without -c)
 *   70 internal error (a bug: please report it with the command line)
 */
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { VERSION } from '../src/version.js'
import { EXIT, type CliIo, type CommandRun } from './io.js'

export { EXIT, type CliIo, type CommandRun } from './io.js'

interface CommandEntry {
  readonly summary: string
  readonly load: () => Promise<{ run: CommandRun }>
}

/** The subcommands. To add one: `name: { summary: '…', load: () => import('./name.js') },` */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  'merge-reports': { summary: 'merge per-shard rag-report.json files into one report', load: () => import('./merge-reports.js') },
  history: { summary: 'the run history the reporters record: list, show, trend, case, import, export, prune', load: () => import('./history.js') },
  ui: { summary: 'a local web app over the run history (runs, trends, one run, compare, one case); --export DIR for static files', load: () => import('./ui.js') },
  compare: { summary: 'compare two rag-report.json files or history runs case by case (paired test, verdict per set and metric)', load: () => import('./compare.js') },
  trec: { summary: 'evaluate a TREC run against qrels (trec_eval 10.0 measures and output)', load: () => import('./trec.js') },
  bleu: { summary: 'corpus BLEU of a hypothesis file against reference files (sacrebleu 2.6 numbers and output)', load: () => import('./bleu.js') },
  chrf: { summary: 'corpus chrF / chrF++ (sacrebleu 2.6 numbers and output)', load: () => import('./chrf.js') },
  ter: { summary: 'corpus TER (sacrebleu 2.6 numbers and output)', load: () => import('./ter.js') },
  sacrebleu: { summary: "sacrebleu 2.6's command line: -m bleu chrf ter, several systems, --confidence, --paired-bs/-ar", load: () => import('./sacrebleu.js') },
  rouge: { summary: 'ROUGE-N/L/Lsum per segment (rouge-score 0.1.2) and their mean', load: () => import('./rouge.js') },
  meteor: { summary: 'METEOR per segment (NLTK 3.8, WordNet 3.0) and their mean', load: () => import('./meteor.js') },
  align: {
    summary: 'does an LLM judge agree with people? kappa, Spearman, confusion matrix and disagreements of judged.jsonl against human labels',
    load: () => import('./align.js'),
  },
  testset: { summary: 'generate an eval set from your chunks with a model, its ground truth checked (testset generate)', load: () => import('./testset.js') },
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length))
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  return `Usage: rag-matchers <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'rag-matchers <command> --help' for the options of a command.\n`
}

/** Run the CLI with `argv` (without `node` and the script) and return the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    ;(command === undefined ? io.stderr : io.stdout).write(usage())
    return command === undefined ? EXIT.usage : EXIT.ok
  }
  if (command === '-v' || command === '--version') {
    io.stdout.write(`rag-matchers ${VERSION}\n`)
    return EXIT.ok
  }
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  if (entry === undefined) {
    io.stderr.write(`rag-matchers: unknown command '${command}'\n\n${usage()}`)
    return EXIT.usage
  }
  try {
    const { run } = await entry.load()
    return await run(rest, io)
  } catch (error) {
    io.stderr.write(`rag-matchers ${command}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return EXIT.internal
  }
}

/** True when this module is the process entry point (also through an npm bin symlink). */
function isEntryPoint(): boolean {
  const script = process.argv[1]
  if (!script) return false
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`rag-matchers: ${String(error)}\n`)
      process.exitCode = EXIT.internal
    },
  )
}
