/**
 * Why a judge call failed, as a category a caller can branch on, plus a message that says what to do.
 *
 * - `unreachable`: cannot connect: nothing accepts a connection at the host (start the server, or fix the host);
 * - `connection-closed`: the server was reached but closed the connection before a complete reply;
 * - `redirects`: the server kept redirecting (more than a handful of hops);
 * - `model-not-found`: HTTP 404 (run `ollama pull <model>`, or fix the model name);
 * - `wrong-model`: the server answered for another model than the one requested;
 * - `auth`: HTTP 401/403 (a missing or wrong API key);
 * - `rate-limited`: HTTP 429 after the bounded backoff;
 * - `timeout`: no complete answer within `timeoutMs` (a judge function that never settles included);
 * - `server`: HTTP 5xx after the retries;
 * - `http`: any other HTTP error (e.g. 400 for a format the server rejects);
 * - `refusal`: the model refused to answer (OpenAI `refusal`);
 * - `truncated`: the reply was cut off (`finish_reason: 'length'`), even after the retries;
 * - `invalid-reply`: the reply never matched the schema, even after the retries;
 * - `function`: a judge function threw;
 * - `missing-package`: an optional client package (`openai`) is not installed;
 * - `config`: the judge cannot be used as configured (e.g. no API key for a remote host);
 * - `cache-miss`: cache mode `replay` and no (valid) recorded entry for the request;
 * - `cache-write`: an entry could not be written (the reply is still used, with a warning).
 */
export type JudgeErrorKind =
  | 'unreachable'
  | 'connection-closed'
  | 'redirects'
  | 'model-not-found'
  | 'wrong-model'
  | 'auth'
  | 'rate-limited'
  | 'timeout'
  | 'server'
  | 'http'
  | 'refusal'
  | 'truncated'
  | 'invalid-reply'
  | 'function'
  | 'missing-package'
  | 'config'
  | 'cache-miss'
  | 'cache-write'

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
