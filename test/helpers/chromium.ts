// Debian's Chromium driven by playwright-core, as every browser test launches it.
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

const CHROMIUM = '/usr/bin/chromium'
// Headless, and nothing that reaches the network on its own: the tests check that no request leaves the machine.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Launches Chromium; FAILS (never skips) when it is not installed, saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run .ci/install-chromium (as root; it runs apt-get install chromium) and re-run this test.`)
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS })
}
