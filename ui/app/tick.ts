/**
 * The page's own share of the live update: main.ts polls the server every POLL_MS for a new run, and on
 * the same tick calls the hook the current page set here (the rate view re-reads its ratings and
 * agreement). Navigating to another page clears it.
 */
let current: (() => Promise<void>) | undefined

/** Called on every poll while this page is shown. */
export function onTick(fn: () => Promise<void>): void {
  current = fn
}

export function clearTick(): void {
  current = undefined
}

export async function tick(): Promise<void> {
  await current?.()
}
