/**
 * Why a judge call failed, as a category a caller can branch on, plus a message that says what to do.
 *
 * - `unreachable`: nothing answers at the host (start `ollama serve`, or fix the host);
 * - `model-not-found`: HTTP 404 (run `ollama pull <model>`);
 * - `timeout`: no complete answer within `timeoutMs`;
 * - `server`: HTTP 5xx after the retries;
 * - `http`: any other HTTP error (e.g. 400 for a format the server rejects);
 * - `invalid-reply`: the reply never matched the schema, even after the retries;
 * - `cache-miss`: cache mode `replay` and no (valid) recorded entry for the request.
 */
export type JudgeErrorKind = 'unreachable' | 'model-not-found' | 'timeout' | 'server' | 'http' | 'invalid-reply' | 'cache-miss'

/** Thrown when a judge call fails; `kind` says why (see {@link JudgeErrorKind}). */
export class JudgeError extends Error {
  override readonly name = 'JudgeError'
  constructor(
    readonly kind: JudgeErrorKind,
    message: string,
    readonly info: Readonly<Record<string, unknown>> = {},
  ) {
    super(message)
  }
}
