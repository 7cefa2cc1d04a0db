/**
 * Why an embedder could not produce vectors. Each kind comes with a message that says what failed,
 * where (model, path or host) and how to fix it, so a failing test explains itself.
 *
 * - `missing-package`: neither `@huggingface/transformers` nor `@xenova/transformers` is installed (or `openai`, for openaiEmbedder);
 * - `load-failed` / `load-timeout`: the model could not be loaded (offline, not cached, corrupt files) or
 *   loading took longer than `loadTimeoutMs`;
 * - `unreachable`: the server did not accept a connection (or hung up mid-reply, or kept redirecting);
 * - `model-not-found`: the server answered 404 (the model is not pulled / not served);
 * - `auth`: no API key for a remote server, or HTTP 401/403;
 * - `timeout`: a request (or a user embedding function) took longer than `timeoutMs`;
 * - `server-error`: any other non-2xx answer;
 * - `bad-response`: the backend answered, but not with one finite vector per text of equal dimension;
 * - `embed-failed`: the backend threw while embedding (a user function, ONNX Runtime).
 */
export type EmbeddingErrorKind =
  'missing-package' | 'load-failed' | 'load-timeout' | 'unreachable' | 'model-not-found' | 'auth' | 'timeout' | 'server-error' | 'bad-response' | 'embed-failed'

/** Thrown when an embedder cannot produce vectors; `kind` says why (see {@link EmbeddingErrorKind}). */
export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError'
  constructor(
    readonly kind: EmbeddingErrorKind,
    /** The `id` of the embedder that failed (or the model name when no id exists yet). */
    readonly embedderId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** The message of an unknown thrown value, with the `code` of its cause when Node gives one (ECONNREFUSED). */
export function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code
    const causeMessage = cause instanceof Error && cause.message !== error.message ? `: ${cause.message}` : ''
    return `${error.message}${causeMessage}${typeof code === 'string' && !error.message.includes(code) && !causeMessage.includes(code) ? ` (${code})` : ''}`
  }
  return String(error)
}
