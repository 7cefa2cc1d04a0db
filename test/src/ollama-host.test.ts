import { ollamaEmbedder, ollamaJudge } from '../../src/index.js'
import { DEFAULT_OLLAMA_HOST, defaultOllamaHost, resolveOllamaHost } from '../../src/ollama-host.js'
import { startFakeOllama } from '../helpers/fake-ollama.js'

describe('the Ollama host', () => {
  it('reads OLLAMA_HOST as Ollama does', () => {
    expect(defaultOllamaHost({})).toBe(DEFAULT_OLLAMA_HOST)
    expect(defaultOllamaHost({ OLLAMA_HOST: '0.0.0.0' })).toBe('http://127.0.0.1:11434')
    expect(defaultOllamaHost({ OLLAMA_HOST: 'gpu-box:11500' })).toBe('http://gpu-box:11500')
    expect(defaultOllamaHost({ OLLAMA_HOST: 'https://ollama.internal' })).toBe('https://ollama.internal')
    expect(resolveOllamaHost('ftp://x')).toBeUndefined()
  })
  it('refuses an unusable OLLAMA_HOST instead of falling back to another server', () => {
    expect(() => defaultOllamaHost({ OLLAMA_HOST: 'ftp://x' })).toThrow('OLLAMA_HOST="ftp://x" is not a host')
  })
  it('is where the judge and the embedder go when no host is passed', async () => {
    const fake = await startFakeOllama()
    const saved = process.env.OLLAMA_HOST
    process.env.OLLAMA_HOST = fake.host.replace('http://', '')
    try {
      fake.on('/api/embed', () => true, { body: { model: 'e', embeddings: [[1, 0]] } })
      expect(await ollamaEmbedder({ model: 'e' }).embed(['x'])).toEqual([new Float32Array([1, 0])])
      fake.on('/api/chat', () => true, { body: { model: 'm', message: { role: 'assistant', content: '{"ok":true}' }, done: true } })
      const reply = await ollamaJudge({ model: 'm', retries: 0 }).ask({
        template: 't',
        messages: [{ role: 'user', content: 'q' }],
        schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      } as never)
      expect(reply).toBeDefined()
      expect(fake.requests.map((r) => r.path)).toEqual(['/api/embed', '/api/chat'])
    } finally {
      if (saved === undefined) delete process.env.OLLAMA_HOST
      else process.env.OLLAMA_HOST = saved
      await fake.close()
    }
  })
})
