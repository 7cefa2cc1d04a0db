/**
 * C `printf` number formatting as trec_eval prints it (glibc). JS `toFixed` agrees except on exact ties, where
 * glibc rounds half to even and `toFixed` rounds away from zero (0.03125 → C `0.0312`, JS `0.0313`), on `-0`
 * (C `-0.0000`) and on non-finite values (C `nan`, `-inf`).
 */

const scratch = new Float64Array(1)
const scratchBytes = new Uint8Array(scratch.buffer)

function signBit(x: number): boolean {
  scratch[0] = x
  // little- or big-endian, the sign lives in the byte that holds the top of the exponent
  const top = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? scratchBytes[7] : scratchBytes[0]
  return ((top as number) & 0x80) !== 0
}

/** `%W.Df`: D decimals, right-justified in W columns. */
export function formatFixed(x: number, decimals: number, width = 0): string {
  let body: string
  if (Number.isNaN(x)) body = signBit(x) ? '-nan' : 'nan'
  else if (!Number.isFinite(x)) body = x < 0 ? '-inf' : 'inf'
  else {
    const negative = x < 0 || Object.is(x, -0)
    const mag = Math.abs(x)
    let digits: string
    if (mag >= 1e21) {
      // every double this large is an integer; toFixed would switch to exponent notation
      digits = BigInt(mag).toString() + (decimals > 0 ? `.${'0'.repeat(decimals)}` : '')
    } else {
      digits = mag.toFixed(decimals)
      // An exact tie at the last printed digit means mag·2^(D+1) is an odd integer (see the module comment).
      const scaled = mag * 2 ** (decimals + 1)
      if (Number.isInteger(scaled) && scaled % 2 === 1) {
        const last = digits.charCodeAt(digits.length - 1) - 48
        if (last % 2 === 1) digits = digits.slice(0, -1) + String(last - 1)
      }
    }
    body = negative ? `-${digits}` : digits
  }
  return body.length >= width ? body : ' '.repeat(width - body.length) + body
}

/** `%ld` of `(long) x`: truncation toward zero. */
export function formatLong(x: number): string {
  const t = Math.trunc(x)
  return Object.is(t, -0) ? '0' : String(t)
}

/** `%-Ws`: left-justified, padded with spaces to W columns, never truncated. */
export function padRight(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length)
}
