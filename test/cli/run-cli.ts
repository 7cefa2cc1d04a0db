// Runs the CLI in process with captured output (the golden and peer comparisons use this, not a child process).
import { main } from '../../cli/main.js'

export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export async function runCli(argv: readonly string[], stdin?: string | Uint8Array): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    stdin:
      stdin === undefined
        ? undefined
        : (async function* () {
            yield typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin
          })(),
  }
  const code = await main(argv, io)
  return { code, stdout, stderr }
}
