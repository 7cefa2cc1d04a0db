/** Numbers, times and status words as the pages show them. */

export function num(value: number | null | undefined, decimals = 4): string {
  return value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(decimals)
}

export function signed(value: number | null | undefined, decimals = 4): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a'
  const text = Math.abs(value).toFixed(decimals)
  return Number(text) === 0 ? `±${text}` : value > 0 ? `+${text}` : `−${text}`
}

export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return 'n/a'
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4)
}

/** `2026-01-05 14:03` in the viewer's time zone. */
export function when(iso: string | undefined): string {
  if (iso === undefined) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

export function duration(ms: number | undefined): string {
  if (ms === undefined) return ''
  if (ms < 1000) return `${ms} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}

/** A CSS class for a status word: good, bad, warn or neutral. */
export function statusClass(status: string | undefined): string {
  if (status === undefined) return 'neutral'
  if (status === 'improved') return 'good'
  if (status === 'regressed' || status === 'incomparable' || status === 'no-common-cases') return 'bad'
  if (status.startsWith('dropped')) return 'warn'
  return 'neutral'
}

export function shortCommit(commit: string | undefined): string {
  return commit === undefined ? '' : commit.slice(0, 8)
}
