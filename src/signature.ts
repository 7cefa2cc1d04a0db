import { VERSION } from './version.js'

/**
 * Signatures record every setting that changes a number, after sacrebleu:
 * `NAME|key:value|key:value|…|version:X.Y.Z`.
 *
 * - keys keep the order the caller gives (fixed per metric), `version` is always last;
 * - booleans print as `yes` / `no`; `undefined` values are omitted;
 * - `|` and `%` inside values are percent-encoded so a signature always splits cleanly;
 * - {@link parseSignature} splits each pair on its FIRST `:` only, because model tags
 *   contain colons (`llama3.1:8b`).
 */
export type SignatureValue = string | number | boolean | undefined

/** Builds a signature `NAME|key:value|…|version:X.Y.Z` from ordered entries (rules above). */
export function buildSignature(name: string, entries: ReadonlyArray<readonly [string, SignatureValue]>): string {
  const parts = [name]
  for (const [key, value] of entries) {
    if (value === undefined) continue
    parts.push(`${key}:${encodeValue(value)}`)
  }
  parts.push(`version:${VERSION}`)
  return parts.join('|')
}

function encodeValue(value: Exclude<SignatureValue, undefined>): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return String(value).replace(/%/g, '%25').replace(/\|/g, '%7C')
}

export interface ParsedSignature {
  readonly name: string
  readonly entries: ReadonlyMap<string, string>
}

/** Splits a signature into its name and its key → value entries (values decoded). */
export function parseSignature(signature: string): ParsedSignature {
  const [name = '', ...pairs] = signature.split('|')
  const entries = new Map<string, string>()
  for (const pair of pairs) {
    const colon = pair.indexOf(':')
    if (colon < 0) {
      entries.set(pair, '')
      continue
    }
    entries.set(pair.slice(0, colon), decodeURIComponent(pair.slice(colon + 1)))
  }
  return { name, entries }
}

/** The keys whose values differ between two signatures (a key present in only one counts). */
export function signatureDifferences(a: string, b: string): Array<{ key: string; a: string | undefined; b: string | undefined }> {
  const pa = parseSignature(a)
  const pb = parseSignature(b)
  const out: Array<{ key: string; a: string | undefined; b: string | undefined }> = []
  if (pa.name !== pb.name) out.push({ key: 'name', a: pa.name, b: pb.name })
  const keys = new Set([...pa.entries.keys(), ...pb.entries.keys()])
  for (const key of keys) {
    const va = pa.entries.get(key)
    const vb = pb.entries.get(key)
    if (va !== vb) out.push({ key, a: va, b: vb })
  }
  return out
}
