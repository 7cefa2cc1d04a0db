/**
 * What a run records about where it ran: git (commit, branch, dirty, subject; `git` run with a short
 * timeout, absence tolerated), CI variables (GitHub Actions, GitLab CI), Node, the runner's version.
 */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'

export interface GitInfo {
  readonly commit?: string
  readonly branch?: string
  readonly dirty?: boolean
  readonly subject?: string
}

export interface CiInfo {
  readonly provider: 'github' | 'gitlab'
  readonly sha?: string
  readonly ref?: string
  readonly runId?: string
  readonly runUrl?: string
  /** Pull request (GitHub) or merge request (GitLab) number. */
  readonly pr?: string
}

export interface RunEnvironment {
  readonly node?: string
  readonly runnerVersion?: string
  readonly git?: GitInfo
  readonly ci?: CiInfo
}

const GIT_TIMEOUT_MS = 2000

function git(root: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: root, timeout: GIT_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true }).trim()
  } catch {
    return undefined
  }
}

/** Git facts of `root` when it is a checkout (and `git` is there); `{}` otherwise. */
export function gitInfo(root: string): GitInfo {
  const head = git(root, ['log', '-1', '--format=%H%n%s'])
  if (head === undefined || head === '') return {}
  const [commit, ...subject] = head.split('\n')
  const branch = git(root, ['rev-parse', '--abbrev-ref', 'HEAD'])
  const status = git(root, ['status', '--porcelain', '--untracked-files=no'])
  return {
    ...(commit ? { commit } : {}),
    ...(branch && branch !== 'HEAD' ? { branch } : {}),
    ...(status !== undefined ? { dirty: status !== '' } : {}),
    ...(subject.length > 0 ? { subject: subject.join('\n') } : {}),
  }
}

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v)

function prFromRef(ref: string | undefined): string | undefined {
  const m = /^refs\/pull\/(\d+)\//.exec(ref ?? '')
  return m?.[1]
}

/** CI variables of GitHub Actions or GitLab CI, when the run is there. */
export function ciInfo(env: NodeJS.ProcessEnv = process.env): CiInfo | undefined {
  if (env.GITHUB_ACTIONS === 'true' || nonEmpty(env.GITHUB_RUN_ID) !== undefined) {
    const server = nonEmpty(env.GITHUB_SERVER_URL)
    const repo = nonEmpty(env.GITHUB_REPOSITORY)
    const runId = nonEmpty(env.GITHUB_RUN_ID)
    const runUrl = server && repo && runId ? `${server}/${repo}/actions/runs/${runId}` : undefined
    const pr = prFromRef(env.GITHUB_REF)
    const fields = { sha: nonEmpty(env.GITHUB_SHA), ref: nonEmpty(env.GITHUB_HEAD_REF) ?? nonEmpty(env.GITHUB_REF_NAME), runId, runUrl, pr }
    return { provider: 'github', ...definedOnly(fields) }
  }
  if (env.GITLAB_CI === 'true' || nonEmpty(env.CI_PIPELINE_ID) !== undefined) {
    const fields = {
      sha: nonEmpty(env.CI_COMMIT_SHA),
      ref: nonEmpty(env.CI_COMMIT_REF_NAME),
      runId: nonEmpty(env.CI_PIPELINE_ID),
      runUrl: nonEmpty(env.CI_PIPELINE_URL),
      pr: nonEmpty(env.CI_MERGE_REQUEST_IID),
    }
    return { provider: 'gitlab', ...definedOnly(fields) }
  }
  return undefined
}

function definedOnly<T extends Record<string, string | undefined>>(o: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<Record<keyof T, string>>
}

/** The installed version of `vitest` or `jest`, as the project resolves it; undefined when it cannot tell. */
export function runnerVersion(runner: string, root: string): string | undefined {
  if (runner !== 'vitest' && runner !== 'jest') return undefined
  try {
    const pkg = createRequire(join(root, 'package.json'))(`${runner}/package.json`) as { version?: unknown }
    return typeof pkg.version === 'string' ? pkg.version : undefined
  } catch {
    return undefined
  }
}

/** Everything above for a run that just finished under `root`. */
export function runEnvironment(runner: string, root: string): RunEnvironment {
  const ci = ciInfo()
  const version = runnerVersion(runner, root)
  return { node: process.version, ...(version ? { runnerVersion: version } : {}), git: gitInfo(root), ...(ci ? { ci } : {}) }
}
