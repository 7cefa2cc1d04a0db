/**
 * Short, file-name-safe keys for names that come from a run (eval set names, case ids): they carry any
 * text (`<script>`, `../..`, 10 kB strings), so neither a URL path nor an exported file name may hold
 * them as they are. The server and the browser app compute the same key (this module is bundled into
 * both), so a shareable URL `#/set/<name>` finds `data/set/<key>.js` in a static export with no server.
 */

/** Two FNV-1a lanes (32 bits each, different offsets) over the UTF-16 code units: 16 hex digits. */
export function keyOf(text: string): string {
  let a = 0x811c9dc5
  let b = 0x050c5d1f
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15)
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')
}

/**
 * A resource name the app asks for: `index`, `latest`, `runlist`, `runs/0`, `run/<id>`, `set/<key>`,
 * `case/<setKey>/<caseKey>`, `compare/<baseId>/<nextId>`, and with `--rate` `rate/<runId>/<setKey>` and
 * `ratings/<runId>/<setKey>[/<otherId>]`. Nothing else (no dot, no slash run, no
 * percent sign) can be a resource, so a request can never name a path outside the data folder.
 */
export const RESOURCE_PATTERN =
  /^(?:index|latest|runlist|runs\/\d{1,6}|run\/[0-9a-f]{1,64}|set\/[0-9a-f]{16}|case\/[0-9a-f]{16}\/[0-9a-f]{16}|compare\/[0-9a-f]{1,64}\/[0-9a-f]{1,64}|rate\/[0-9a-f]{1,64}\/[0-9a-f]{16}|ratings\/[0-9a-f]{1,64}\/[0-9a-f]{16}(?:\/[0-9a-f]{1,64})?)$/
