/**
 * The response headers of every answer of the UI server, and the policy the static export puts in its
 * page. The app's script and style are files of its own origin; nothing inline may run or apply, nothing
 * may load from elsewhere, and no other site may frame the page.
 */

/** Content-Security-Policy of the served app: no inline script, no inline style element, same-origin data only. */
export const UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * The export's policy (a `<meta>` tag: a file opened from disk or GitHub Pages has no header of ours).
 * `frame-ancestors` is ignored in a meta tag, so it is left out; scripts still come from the export's own folder only.
 */
export const EXPORT_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': UI_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
}

/** Host names a browser on this machine uses for a loopback server. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

/**
 * Whether the request's Host header names this server: a loopback name, or the host it was told to
 * bind. A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) sends its own
 * name, and gets nothing.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string): boolean {
  if (hostHeader === undefined) return false
  const name = hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : (hostHeader.split(':')[0] ?? '')
  const lower = name.toLowerCase()
  if (LOOPBACK.has(lower)) return true
  if (boundHost === '0.0.0.0' || boundHost === '::') return true
  return lower === boundHost.toLowerCase() || lower === `[${boundHost.toLowerCase()}]`
}
