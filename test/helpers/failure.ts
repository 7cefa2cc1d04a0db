/** Strips ANSI colour codes so failure messages can be compared as text under both runners. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '')
}

/** The failure message of an assertion that must fail; throws when the assertion passes. */
export function failureOf(assertion: () => unknown): string {
  try {
    assertion()
  } catch (error) {
    return stripAnsi((error as Error).message)
  }
  throw new Error('expected the assertion to fail, but it passed')
}

/** The same for async matchers. */
export async function asyncFailureOf(assertion: () => Promise<unknown>): Promise<string> {
  try {
    await assertion()
  } catch (error) {
    return stripAnsi((error as Error).message)
  }
  throw new Error('expected the assertion to fail, but it passed')
}
