// Types of fake-openai.cjs, for the type check of the Vitest fixture (`tsc --noEmit` in the project).
export interface FakeOpenAIScript {
  /** Bearer token every request must carry. */
  apiKey?: string
  /** The reply to the claims step. */
  claims: string[]
  /** The reply to the verdicts step. */
  verdicts: Array<{ claim: number; reason: string; verdict: 'supported' | 'contradicted' | 'not_found'; context: number }>
}

export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string
  readonly requests: Array<{ method: string; path: string; headers: Record<string, unknown>; body: unknown }>
  /** What was not shaped as the protocol expects; stays empty against openaiJudge. */
  readonly problems: string[]
  close(): Promise<void>
}

export function startFakeOpenAI(script: FakeOpenAIScript): Promise<FakeOpenAI>
