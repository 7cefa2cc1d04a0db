/**
 * What every subcommand shares: its I/O, the exit codes and how a failure is reported (documented in `main.ts` and
 * `docs/cli.md`).
 */

/** Where a command reads and writes; commands never touch `process` directly, so tests can capture everything. */
export interface CliIo {
  readonly stdout: { write(chunk: string): unknown; once?(event: 'drain', listener: () => void): unknown }
  readonly stderr: { write(chunk: string): unknown }
  /** standard input, for `-` file arguments */
  readonly stdin?: AsyncIterable<Uint8Array | string>
}

export type CommandRun = (argv: readonly string[], io: CliIo) => Promise<number>

export const EXIT = { ok: 0, usage: 1, input: 2, evaluation: 4, internal: 70 } as const

/** Write, and wait for 'drain' when the stream asks for it (large `-q` outputs into a slow pipe). */
export async function writeOut(out: CliIo['stdout'], text: string): Promise<void> {
  if (out.write(text) === false && typeof out.once === 'function') {
    await new Promise<void>((resolve) => out.once?.('drain', resolve))
  }
}

/** Reports a failure on stderr as `rag-matchers COMMAND: MESSAGE` and returns its exit code. */
export function reportFailure(io: CliIo, command: string, code: number, message: string): number {
  io.stderr.write(`rag-matchers ${command}: ${message}\n`)
  return code
}

/** The message for a file that cannot be read: `cannot read 'PATH': ENOENT (open)`. */
export function cannotRead(path: string, error: NodeJS.ErrnoException): string {
  return `cannot read '${path}': ${error.code}${error.syscall ? ` (${error.syscall})` : ''}`
}

/**
 * An error's message for `rag-matchers COMMAND: MESSAGE`: a core MetricInputError starts with its function name
 * (`trec: Expected …`), which the command prefix already stands for, so it is dropped (one prefix, not two).
 */
export function cliMessage(error: Error): string {
  const fn = (error as { fn?: unknown }).fn
  return typeof fn === 'string' && error.message.startsWith(`${fn}: `) ? error.message.slice(fn.length + 2) : error.message
}
