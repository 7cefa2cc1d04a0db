/**
 * A scripted question writer for the generateEvalSet tests: a small corpus and, per chunk, what the fake
 * model replies when that chunk is the PASSAGE of the prompt, good and bad replies alike. The same
 * script is served over the fake Ollama and the fake OpenAI-protocol servers.
 */
import { ECHO_MODEL } from '../helpers/scripted-server.js'
import { completion, type FakeOpenAIReply } from '../helpers/fake-openai.js'
import type { FakeReply } from '../helpers/fake-ollama.js'

export type WriterReply =
  { readonly json: { question: string; answer?: string; keyword: string } } | { readonly raw: string } | { readonly refuse: string } | { readonly hangMs: number }

export interface ScriptedChunk {
  readonly id: string
  readonly text: string
  readonly reply: WriterReply
  /** The rejection this chunk's question must land in, or 'kept'. */
  readonly expect: string
}

/** Every chunk names "Orion station", so that keyword is in every chunk. Only c02 and c03 hold digits. */
export const CORPUS: readonly ScriptedChunk[] = [
  {
    id: 'c01',
    text: 'Orion station runs on a fusion reactor named Helios Core, commissioned after the flood.',
    reply: { json: { question: 'What is the name of the fusion reactor that powers the station?', answer: 'The reactor is called Helios Core.', keyword: 'Helios Core' } },
    expect: 'kept or near-duplicate',
  },
  {
    id: 'c02',
    text: 'Orion station has 48 docking\nbays spread over three rings.',
    reply: { json: { question: 'How many docking bays does the station have?', answer: 'It has 48 of them.', keyword: '48 docking bays' } },
    expect: 'kept',
  },
  {
    id: 'c03',
    text: 'The Orion station crew rotates every 90 days.',
    reply: { json: { question: 'How often does the crew change?', answer: 'The crew rotates every 90 days.', keyword: 'crew rotates' } },
    expect: 'keyword-not-numeric',
  },
  {
    id: 'c04',
    text: 'Orion station grows lettuce in hydroponic towers.',
    reply: { json: { question: 'How is lettuce grown on the station?', answer: 'In aeroponic towers.', keyword: 'aeroponic towers' } },
    expect: 'keyword-not-in-chunk',
  },
  {
    id: 'c05',
    text: 'Orion station orbits a gas giant with pale blue rings.',
    reply: { json: { question: 'Which station orbits the gas giant?', answer: 'Orion station does.', keyword: 'Orion station' } },
    expect: 'keyword-too-common',
  },
  {
    id: 'c06',
    text: "Orion station's chief engineer is Mara Voss.",
    reply: { json: { question: 'What role does Mara Voss hold on the station?', answer: 'Mara Voss is the chief engineer.', keyword: 'Mara Voss' } },
    expect: 'keyword-in-question',
  },
  {
    id: 'c07',
    text: 'The Orion station library holds paper maps of the old coastline.',
    reply: { json: { question: 'What does the library keep of the old coastline?', answer: 'It keeps printed charts.', keyword: 'paper maps' } },
    expect: 'reference-missing-keyword',
  },
  {
    id: 'c08',
    text: "Orion station's backup reactor is called Selene Unit.",
    reply: { json: { question: 'What is the name of the fusion reactor that powers the station?', answer: 'It is the Selene Unit.', keyword: 'Selene Unit' } },
    expect: 'kept or near-duplicate',
  },
  {
    id: 'c09',
    text: 'Orion station keeps its archives in a vault under the hub.',
    reply: { raw: '{"question": "Where are the archives kept?", "answer": ' },
    expect: 'malformed',
  },
  { id: 'c10', text: 'Orion station trades ice with the outer miners.', reply: { refuse: "I'm sorry, but I can't help with that request." }, expect: 'refusal' },
  { id: 'c11', text: 'Orion station plays music from a jukebox in the mess hall.', reply: { hangMs: 8_000 }, expect: 'timeout' },
  {
    id: 'c12',
    text: "Orion station's greenhouse is tended by a robot called Fern.",
    reply: { json: { question: 'Which robot looks after the greenhouse?', answer: 'A robot called Fern tends it.', keyword: 'Fern' } },
    expect: 'kept',
  },
  {
    id: 'c13',
    text: 'Visitors to Orion station pass the Helios Core decontamination gate first.',
    reply: { json: { question: 'What must visitors pass through on arrival?', answer: 'They pass the decontamination gate.', keyword: 'decontamination gate' } },
    expect: 'kept',
  },
]

/** Per-judge timeout in the tests: long enough for a loaded machine, far shorter than c11's hang. */
export const TIMEOUT_MS = 2_000

/** The PASSAGE of a chat request's first user message (the rendered prompt). */
export function passageOf(body: any): string {
  const prompt = ((body?.messages ?? []) as Array<{ role: string; content: string }>).find((m) => m.role === 'user')?.content ?? ''
  const start = /^<<<PASSAGE (#[0-9a-f]{8})>>>$/m.exec(prompt)
  if (start === null) throw new Error('no PASSAGE in the prompt')
  const from = start.index + start[0].length + 1
  return prompt.slice(from, prompt.indexOf(`\n<<<END PASSAGE ${start[1]}>>>`, from))
}

function scriptFor(body: any, corpus: readonly ScriptedChunk[]): WriterReply {
  const passage = passageOf(body)
  const chunk = corpus.find((c) => c.text === passage)
  if (chunk === undefined) throw new Error(`no script for the passage ${JSON.stringify(passage)}`)
  return chunk.reply
}

/** The script as Ollama /api/chat replies. */
export function ollamaWriter(corpus: readonly ScriptedChunk[] = CORPUS): (req: { body: any }) => FakeReply {
  return (req) => {
    const reply = scriptFor(req.body, corpus)
    const message = (content: string): FakeReply => ({ body: { model: ECHO_MODEL, created_at: '2024-01-01T00:00:00Z', message: { role: 'assistant', content }, done: true } })
    if ('json' in reply) return message(JSON.stringify(reply.json))
    if ('raw' in reply) return message(reply.raw)
    // Ollama has no refusal field: the model says it in prose.
    if ('refuse' in reply) return message(reply.refuse)
    return { ...message('{}'), delayMs: reply.hangMs }
  }
}

/** The script as OpenAI /v1/chat/completions replies. */
export function openaiWriter(corpus: readonly ScriptedChunk[] = CORPUS): (req: { body: any }) => FakeOpenAIReply {
  return (req) => {
    const reply = scriptFor(req.body, corpus)
    if ('json' in reply) return completion(reply.json)
    if ('raw' in reply) return completion(reply.raw)
    if ('refuse' in reply) return completion(null, { refusal: reply.refuse })
    return { ...completion({}), delayMs: reply.hangMs }
  }
}
