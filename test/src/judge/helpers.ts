// Test-only helpers for scripting judge replies on the fake Ollama server.
import { ollamaJudge, type OllamaJudgeOptions } from '../../../src/judge/ollama-judge.js'
import { ECHO_MODEL, startFakeOllama, type FakeOllama, type FakeReply } from '../../helpers/fake-ollama.js'

/** The model the judge tests ask for and the fake answers as. */
const MODEL = 'llama3.1:8b'

/**
 * Registers hooks that start a fresh fake Ollama before each test and, after it, check that every
 * request was scripted and close it. The returned handle stands for the current test's server (a
 * describe body runs before any server exists), so tests keep writing `fake.on(…)`, `fake.requests`.
 */
export function useFakeOllama(): FakeOllama {
  let current: FakeOllama | undefined
  const live = (): FakeOllama => {
    if (current === undefined) throw new Error('useFakeOllama: the fake server only runs inside a test')
    return current
  }
  beforeEach(async () => {
    current = await startFakeOllama()
  })
  afterEach(async () => {
    expect(live().unhandled).toEqual([])
    await live().close()
  })
  return {
    get host() {
      return live().host
    },
    on: (...args: Parameters<FakeOllama['on']>) => live().on(...args),
    get requests() {
      return live().requests
    },
    get unhandled() {
      return live().unhandled
    },
    close: () => live().close(),
  }
}

/** {@link useFakeOllama} plus the metric tests' judge on it (`llama3.1:8b`, optional seed/temperature…). */
export function useFakeJudge(): {
  fake: FakeOllama
  judge: (options?: Omit<OllamaJudgeOptions, 'model' | 'host'>) => ReturnType<typeof ollamaJudge>
} {
  const fake = useFakeOllama()
  return { fake, judge: (options = {}) => ollamaJudge({ model: MODEL, host: fake.host, ...options }) }
}

/**
 * A non-streamed /api/chat reply whose message content is `value` (JSON-encoded unless already a string),
 * answered as `model` (default: whatever model the request asked for).
 */
export function chatReply(value: unknown, model = ECHO_MODEL, usage?: { promptEvalCount: number; evalCount: number }): FakeReply {
  const content = typeof value === 'string' ? value : JSON.stringify(value)
  // Ollama reports tokens as prompt_eval_count (prompt) and eval_count (reply), with timings in ns.
  const counts =
    usage === undefined
      ? {}
      : { prompt_eval_count: usage.promptEvalCount, eval_count: usage.evalCount, total_duration: 1_200_000_000, prompt_eval_duration: 300_000_000, eval_duration: 800_000_000 }
  return { body: { model, created_at: '2024-01-01T00:00:00Z', message: { role: 'assistant', content }, done: true, done_reason: 'stop', ...counts } }
}

/** The first user message of a chat request (the rendered prompt). */
export function promptOf(body: any): string {
  return (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')?.content ?? ''
}

/** Property names of the request's `format` schema; identifies the template step. */
export function schemaKeys(body: any): string[] {
  return Object.keys(body?.format?.properties ?? {}).sort()
}

/** True when the request's format schema has exactly these top-level properties. */
export function step(...keys: string[]): (body: any) => boolean {
  const want = [...keys].sort().join(',')
  return (body) => schemaKeys(body).join(',') === want
}

/** The data between `<<<LABEL #nonce>>>` and `<<<END LABEL #nonce>>>` in the prompt, or undefined. */
export function dataOf(body: any, label: string): string | undefined {
  const prompt = promptOf(body)
  const start = new RegExp(`^<<<${label} (#[0-9a-f]{8})>>>$`, 'm').exec(prompt)
  if (start === null) return undefined
  const end = `\n<<<END ${label} ${start[1]}>>>`
  const from = start.index + start[0].length + 1
  return prompt.slice(from, prompt.indexOf(end, from))
}

/** All labels of the sections in a prompt, in order (e.g. ['CLAIM 1', 'CONTEXT 1']). */
export function labelsOf(body: any): string[] {
  return [...promptOf(body).matchAll(/^<<<(?!END )([A-Z0-9 ]+) #[0-9a-f]{8}>>>$/gm)].map((m) => m[1] as string)
}
