// Test-only helpers for scripting judge replies on the fake Ollama server.
import type { FakeReply } from '../../helpers/fake-ollama.js'

/** A non-streamed /api/chat reply whose message content is `value` (JSON-encoded unless already a string). */
export function chatReply(value: unknown, model = 'llama3.1:8b'): FakeReply {
  const content = typeof value === 'string' ? value : JSON.stringify(value)
  return { body: { model, created_at: '2024-01-01T00:00:00Z', message: { role: 'assistant', content }, done: true, done_reason: 'stop' } }
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
