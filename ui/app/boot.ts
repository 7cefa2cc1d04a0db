/**
 * A kilobyte that runs as soon as the page's head is parsed (a plain script, first in the head: it runs
 * before app.js, which is deferred): it asks the server for the index and the page's own resource, so those
 * requests overlap with loading and compiling app.js (about 90 kB with uPlot) instead of starting after it.
 * The app takes the answers once, at its start (data.ts). A static export loads its data as scripts of its
 * own folder and needs none of this.
 */
import { pageResource, parseRoute, requestResource } from './route.js'

declare global {
  interface Window {
    ragUiEarly?: Map<string, Promise<Response>>
  }
}

if (document.querySelector('meta[name="rag-ui-mode"]')?.getAttribute('content') === 'server') {
  const early = new Map<string, Promise<Response>>()
  for (const name of ['index', pageResource(parseRoute(location.hash))]) {
    if (name === undefined) continue
    const answer = requestResource(name)
    // a failed early request is asked again by the app, which shows the error if it fails again
    answer.catch(() => early.delete(name))
    early.set(name, answer)
  }
  window.ragUiEarly = early
}
