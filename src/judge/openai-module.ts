import { hostOf, isLocalHost } from './transport.js'

/**
 * The slice of the official `openai` package the judge and the embedder use, typed here so that no
 * declaration of rag-matchers mentions the package: it is an optional peer dependency, loaded only
 * when `openaiJudge` / `openaiEmbedder` actually call a server.
 */
export interface OpenAIClientLike {
  chat: { completions: { create(body: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown> } }
  embeddings: { create(body: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown> }
}

export type OpenAIConstructor = new (options: Record<string, unknown>) => OpenAIClientLike

/** What `import('openai')` resolves to, as far as we need it (ESM default export or CJS namespace). */
export interface OpenAIModuleLike {
  readonly default?: unknown
  readonly OpenAI?: unknown
}

/** Loads the package; the default is a dynamic import so that a user who never calls it never loads it. */
export type OpenAIImporter = () => Promise<OpenAIModuleLike>

export const importOpenAI: OpenAIImporter = () => import('openai') as Promise<OpenAIModuleLike>

/** Thrown by {@link loadOpenAI} when the package is absent; callers turn it into their own error kind. */
export class MissingOpenAIPackageError extends Error {
  override readonly name = 'MissingOpenAIPackageError'
}

/**
 * The `OpenAI` class from the package, or a {@link MissingOpenAIPackageError} that names the package
 * and the install command. Any other load failure (a broken install) is rethrown as is.
 */
export async function loadOpenAI(importer: OpenAIImporter, caller: string): Promise<OpenAIConstructor> {
  let mod: OpenAIModuleLike
  try {
    mod = await importer()
  } catch (error) {
    const code = (error as { code?: unknown })?.code
    const message = (error as Error)?.message ?? String(error)
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /Cannot find (module|package) ['"]?openai/.test(message)) {
      throw new MissingOpenAIPackageError(
        `${caller} needs the \`openai\` package, which is not installed: run \`npm install --save-dev openai\` ` +
          '(it is an optional peer dependency of rag-matchers, loaded only by openaiJudge and openaiEmbedder).',
        { cause: error },
      )
    }
    throw error
  }
  const candidate = typeof mod.OpenAI === 'function' ? mod.OpenAI : typeof mod.default === 'function' ? mod.default : (mod.default as { OpenAI?: unknown } | undefined)?.OpenAI
  if (typeof candidate !== 'function')
    throw new MissingOpenAIPackageError(`${caller}: the installed \`openai\` package does not export the OpenAI client class; install openai ≥ 4.`)
  return candidate as OpenAIConstructor
}

/** The base URL of the official API, which the `openai` client also defaults to. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'

/**
 * `baseURL`, else `OPENAI_BASE_URL`, else the official API; and `apiKey`, else `OPENAI_API_KEY`. The
 * environment is read here, as the `openai` client itself does, because users already set these
 * variables for every other OpenAI tool.
 */
export function resolveOpenAIEndpoint(
  baseURL: string | undefined,
  apiKey: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): { baseURL: string; apiKey: string | undefined; host: string; local: boolean } {
  const url = (baseURL ?? (env['OPENAI_BASE_URL'] || undefined) ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const key = apiKey ?? (env['OPENAI_API_KEY'] || undefined)
  return { baseURL: url, apiKey: key, host: hostOf(url), local: isLocalHost(url) }
}

/** How a server is named in messages: OpenAI itself, or an OpenAI-compatible server at its URL. */
export function openAIServerLabel(baseURL: string): string {
  return hostOf(baseURL) === 'api.openai.com' ? `OpenAI at ${baseURL}` : `the OpenAI-compatible server at ${baseURL}`
}

/** Milliseconds a 429/503 asks us to wait (`retry-after-ms`, then `retry-after` in seconds or as a date). */
export function retryAfterMs(headers: unknown): number | undefined {
  const get = (name: string): string | null | undefined => (headers as { get?: (n: string) => string | null } | undefined)?.get?.(name)
  const ms = Number.parseFloat(get('retry-after-ms') ?? '')
  if (Number.isFinite(ms) && ms >= 0) return ms
  const raw = get('retry-after')
  if (raw === null || raw === undefined) return undefined
  const seconds = Number.parseFloat(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(raw)
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined
}

/**
 * A lazily created `openai` client for one endpoint, shared by the judge and the embedder: the package
 * is imported on the first call only, its own retries are off (ours are bounded and name the server),
 * and a local server without a key gets no `authorization` header at all. A failed load is forgotten,
 * so a later call tries again.
 */
export function lazyOpenAIClient(options: {
  readonly importer: OpenAIImporter
  readonly caller: string
  readonly endpoint: { readonly baseURL: string; readonly apiKey: string | undefined }
  readonly timeoutMs: number
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly fetch: typeof fetch
}): () => Promise<OpenAIClientLike> {
  const { importer, caller, endpoint, timeoutMs, headers } = options
  const send = options.fetch
  let client: Promise<OpenAIClientLike> | undefined
  return () => {
    client ??= loadOpenAI(importer, caller).then(
      (OpenAI) =>
        new OpenAI({
          // the client insists on a key; for a keyless local server the header is stripped below
          apiKey: endpoint.apiKey ?? 'no-key',
          baseURL: endpoint.baseURL,
          maxRetries: 0,
          timeout: timeoutMs + 5_000,
          defaultHeaders: headers,
          fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
            if (endpoint.apiKey !== undefined) return send(input, init)
            const stripped = new Headers(init?.headers)
            stripped.delete('authorization')
            return send(input, { ...init, headers: stripped })
          }) as typeof fetch,
        }),
    )
    client.catch(() => {
      client = undefined
    })
    return client
  }
}
