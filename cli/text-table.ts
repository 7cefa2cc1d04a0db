/**
 * The box-drawn table sacrebleu 2.x prints in multi-system mode: python-tabulate's `fancy_grid` layout with
 * `colalign=('right',)` for the system column and every other column centred. The layout rules reproduced:
 * a column is as wide as its widest cell line or its header plus 2 (tabulate's MIN_PADDING), whichever is wider;
 * one space of padding on each side; centring puts the odd space on the right (Python's `'{:^N}'`); a cell with
 * several lines is top-aligned and the other cells of its row are padded with blank lines. Widths count code
 * points (μ and ± are one column; East Asian wide characters are not measured as two, as tabulate would).
 */

export type ColumnAlign = 'right' | 'center'

const width = (s: string): number => [...s].length

function pad(s: string, w: number, align: ColumnAlign): string {
  const room = w - width(s)
  if (room <= 0) return s
  if (align === 'right') return ' '.repeat(room) + s
  const left = Math.floor(room / 2)
  return ' '.repeat(left) + s + ' '.repeat(room - left)
}

/**
 * Renders `headers` and `rows` (cells may hold `\n`) as tabulate's `fancy_grid`, without a final newline.
 *
 * @example
 * fancyGrid(['System', 'BLEU'], [['a.txt', '20.4']], ['right', 'center'])
 * // ╒══════════╤════════╕
 * // │   System │  BLEU  │
 * // ╞══════════╪════════╡
 * // │    a.txt │  20.4  │
 * // ╘══════════╧════════╛
 */
export function fancyGrid(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, aligns: readonly ColumnAlign[]): string {
  const cells = rows.map((row) => row.map((cell) => cell.trim().split('\n')))
  const widths = headers.map((h, j) => Math.max(width(h) + 2, ...cells.map((row) => Math.max(...(row[j] ?? ['']).map(width)))))
  const rule = (left: string, fill: string, mid: string, right: string) => left + widths.map((w) => fill.repeat(w + 2)).join(mid) + right
  const line = (parts: readonly string[]) => `│ ${parts.join(' │ ')} │`
  const out = [rule('╒', '═', '╤', '╕'), line(headers.map((h, j) => pad(h, widths[j]!, aligns[j] ?? 'center'))), rule('╞', '═', '╪', '╡')]
  cells.forEach((row, i) => {
    if (i > 0) out.push(rule('├', '─', '┼', '┤'))
    const height = Math.max(...row.map((c) => c.length))
    for (let k = 0; k < height; k++) {
      out.push(line(widths.map((w, j) => (row[j]?.[k] === undefined ? ' '.repeat(w) : pad(row[j]![k]!, w, aligns[j] ?? 'center')))))
    }
  })
  out.push(rule('╘', '═', '╧', '╛'))
  return out.join('\n')
}
