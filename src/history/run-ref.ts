/**
 * Run references: how `history show`, `compare`, the UI and `readRun` name a stored run. One resolver for
 * all of them:
 *
 * - `last`, `last~N`: the newest run, N runs before it (by end time);
 * - a run id or a prefix of one (ids are 12 hex digits);
 * - a git commit or a prefix of at least 4 hex digits, as git abbreviates (`git_commit`, or the CI's sha).
 *
 * A reference that names no run, or several (a prefix shared by two ids, a commit run twice), is a
 * HistoryError that lists the candidates; it never picks one silently.
 */
import type { HistoryBackend } from './backend.js'
import { HistoryError } from './errors.js'

/** Shortest commit prefix looked up among commits (git's own minimum abbreviation). */
export const MIN_COMMIT_PREFIX = 4
/** Candidates named in an "several runs" error. */
const SHOWN = 5

const LAST = /^last(?:~(\d+))?$/i
const HEX = /^[0-9a-f]{1,64}$/i

/** Whether `text` has the form of a run reference (it may still name no run). */
export function looksLikeRunRef(text: string): boolean {
  const t = text.trim()
  return LAST.test(t) || HEX.test(t)
}

interface Candidate {
  readonly id: string
  readonly ended_at: string
  readonly git_commit: string | null
  readonly git_branch: string | null
  readonly ci_sha: string | null
}

function describe(c: Candidate): string {
  const commit = c.git_commit ?? c.ci_sha
  const git = commit ? `, ${c.git_branch ?? '(detached)'}@${commit.slice(0, 7)}` : ''
  return `${c.id} (${c.ended_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}${git})`
}

/**
 * The id of the run `ref` names in the store behind `backend` (`location` is the store, for messages).
 * Throws a HistoryError when it is not a reference, names no run, or names several (listing them).
 *
 * @example
 * await resolveRunRef(store.backend, store.location, 'last~1') // '90d616b71703'
 */
export async function resolveRunRef(backend: HistoryBackend, location: string, ref: string): Promise<string> {
  const text = ref.trim()
  const back = LAST.exec(text)
  if (back) {
    const n = Number(back[1] ?? 0)
    const rows = await backend.all<{ id: string }>(`SELECT id FROM runs ORDER BY ended_at DESC, id DESC LIMIT 1 OFFSET ${n}`)
    if (rows.length === 0) throw new HistoryError(`no run '${text}' in ${location} (${n === 0 ? 'the store has no runs' : `it has fewer than ${n + 1} runs`})`)
    return String(rows[0]?.id)
  }
  if (!HEX.test(text)) throw new HistoryError(`'${text}' is not a run reference (last, last~N, a run id or an id prefix, a git commit)`)
  const hex = text.toLowerCase()
  // An id has 12 digits: a longer reference can only be a commit; a shorter one than git abbreviates, only an id.
  const idish = hex.length <= 12
  const commitish = hex.length >= MIN_COMMIT_PREFIX
  const where = [...(idish ? ['id LIKE ?'] : []), ...(commitish ? ['git_commit LIKE ?', 'ci_sha LIKE ?'] : [])]
  const rows = await backend.all<Candidate>(
    `SELECT id, ended_at, git_commit, git_branch, ci_sha FROM runs WHERE ${where.join(' OR ')} ORDER BY ended_at, id LIMIT ${SHOWN + 1}`,
    where.map(() => `${hex}%`),
  )
  // A whole run id names that run, whatever commits share its digits.
  const exact = rows.find((r) => String(r.id) === hex)
  if (exact) return String(exact.id)
  const byId = idish ? rows.filter((r) => String(r.id).startsWith(hex)) : []
  const byCommit = rows.filter((r) => !byId.includes(r))
  const found = [...byId, ...byCommit]
  if (found.length === 0) throw new HistoryError(`no run matches '${text}' in ${location} (no run id${commitish ? ' or git commit' : ''} starts with it)`)
  if (found.length > 1) {
    const shown = found.slice(0, SHOWN).map(describe)
    const what = byId.length > 0 && byCommit.length > 0 ? 'run ids and commits' : byId.length > 0 ? 'run ids' : 'commits'
    throw new HistoryError(`'${text}' matches several runs (${what}): ${shown.join(', ')}${rows.length > SHOWN ? ', …' : ''}: give more of the id, or pick one with last~N`)
  }
  return String(found[0]?.id)
}
