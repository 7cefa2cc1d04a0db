/**
 * Plain-text formatting shared by failure messages and the report renderers: numbers that never
 * print equal when they differ, bounded tables and lists, quoted free text.
 */

/** Rows shown at most in any breakdown list, so messages and snapshots stay bounded. */
export const MAX_ROWS = 10

/**
 * Formats `value` with `decimals` digits, adding digits until it no longer prints the same as
 * `other` (so a message never reads "0.7000 < 0.7000").
 */
export function formatNumber(value: number, other?: number, decimals = 4): string {
  if (!Number.isFinite(value)) return String(value)
  let d = decimals
  let text = value.toFixed(d)
  if (other !== undefined && Number.isFinite(other) && value !== other) {
    while (d < 17 && text === other.toFixed(d)) {
      d += 1
      text = value.toFixed(d)
    }
  }
  return text
}

/** Pads a table's columns to their widest cell; rows beyond `max` become "… and N more". */
export function table(rows: ReadonlyArray<ReadonlyArray<string>>, options: { indent?: string; max?: number; total?: number } = {}): string {
  const indent = options.indent ?? '  '
  const max = options.max ?? MAX_ROWS
  const shown = rows.slice(0, max)
  const widths: number[] = []
  for (const row of shown) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)))
  const out = shown.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
  )
  const total = options.total ?? rows.length
  if (total > shown.length) out.push(`${indent}… and ${total - shown.length} more`)
  return out.join('\n')
}

/** A bounded, comma-separated list: `a, b, c … and 4 more`. */
export function list(items: readonly string[], max = MAX_ROWS): string {
  const shown = items.slice(0, max).join(', ')
  return items.length > max ? `${shown} … and ${items.length - max} more` : shown
}

/** Quotes a free-text value for a message, bounded in length, newlines shown as ⏎. */
export function quote(text: string, max = 120): string {
  const flat = text.replace(/\r?\n/g, ' ⏎ ')
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat)
}
