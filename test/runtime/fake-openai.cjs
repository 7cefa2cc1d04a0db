'use strict'
// A minimal OpenAI-compatible server for the runtime matrix (scripts/runtime-matrix.mjs): listens on
// 127.0.0.1 (port 0) and answers POST /v1/chat/completions with real chat.completion objects, so the
// `openai` client inside openaiJudge talks to it as to any server. CommonJS so that both the ESM Vitest
// suite and the CommonJS Jest suite load it as is, with no transform.
//
// The groundedness judge asks twice per assertion: once for the answer's claims (a json_schema with a
// `claims` property), once for one verdict per claim (`verdicts`). The scripted claims and verdicts
// are returned for those; every request is recorded, and anything not shaped like the protocol expects
// is listed in `problems`, which the suites assert stays empty.
const { createServer } = require('node:http')

function startFakeOpenAI(script) {
  const requests = []
  const problems = []
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        body = undefined
      }
      requests.push({ method: req.method, path: req.url, headers: req.headers, body })
      const send = (status, payload) => {
        const text = JSON.stringify(payload)
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-request-id': `req_${requests.length}` })
        res.end(text)
      }
      const fail = (status, message) => {
        problems.push(`${req.method} ${req.url}: ${message}`)
        send(status, { error: { message, type: 'invalid_request_error', param: null, code: null } })
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return fail(404, `no route ${req.method} ${req.url}`)
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) problems.push(`content-type ${req.headers['content-type']}`)
      if (script.apiKey !== undefined && req.headers.authorization !== `Bearer ${script.apiKey}`) problems.push(`authorization ${req.headers.authorization}`)
      if (body === undefined || typeof body.model !== 'string') return fail(400, 'the body is not JSON with a model')
      if (!Array.isArray(body.messages) || body.messages.some((m) => typeof m?.role !== 'string' || typeof m?.content !== 'string'))
        return fail(400, 'messages are not {role, content} strings')
      if (typeof body.temperature !== 'number') problems.push(`temperature ${JSON.stringify(body.temperature)}`)
      if (!Number.isInteger(body.seed)) problems.push(`seed ${JSON.stringify(body.seed)}`)
      const rf = body.response_format
      if (rf !== undefined && rf.type === 'json_schema' && (rf.json_schema?.strict !== true || rf.json_schema?.schema?.type !== 'object'))
        problems.push(`response_format ${JSON.stringify(rf)}`)
      const properties = Object.keys(rf?.json_schema?.schema?.properties ?? {})
      const prompt = body.messages.map((m) => m.content).join('\n')
      const step = properties.includes('verdicts') || (properties.length === 0 && prompt.includes('{"verdicts"')) ? 'verdicts' : 'claims'
      const content = JSON.stringify(step === 'verdicts' ? { verdicts: script.verdicts } : { claims: script.claims })
      send(200, {
        id: `chatcmpl-runtime-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: prompt.length, completion_tokens: content.length, total_tokens: prompt.length + content.length },
      })
    })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      resolve({
        baseURL: `http://127.0.0.1:${port}/v1`,
        requests,
        problems,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
}

module.exports = { startFakeOpenAI }
