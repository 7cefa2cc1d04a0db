/**
 * The rubric of the UI's rate view (`rag-matchers ui --rate --rubric rubric.json`, docs/ui.md): the
 * dimensions a rater scores, each on a 1–5 scale or pass/fail, with the text the page shows, and the
 * question of the pairwise mode. Read strictly: an unknown key, a wrong type, a duplicate or reserved
 * dimension name is a RubricError naming the key, so a typo never turns into a silently missing dimension.
 *
 *   {
 *     "title": "Answer quality",                      optional, shown as the page's subtitle
 *     "instructions": "Read the question first…",     optional, shown above the cases
 *     "dimensions": [
 *       { "name": "correctness", "scale": "1-5", "text": "Are the facts right?",
 *         "labels": { "1": "wrong", "5": "all right" },   optional, words for scale points
 *         "judge": "rubric correctness" },                optional, the run's judge metric row to compare with
 *       { "name": "grounded", "scale": "pass-fail", "text": "Is every claim in the contexts?" }
 *     ],
 *     "pairwise": { "text": "Which answer is better?" }  optional
 *   }
 */
import { readFileSync } from 'node:fs'
import { PAIRWISE_DIMENSION } from '../history/ratings.js'

export type RubricScale = '1-5' | 'pass-fail'

export interface RubricDimension {
  readonly name: string
  readonly scale: RubricScale
  readonly text: string
  /** Words for some points of the scale (`"1": "wrong"`), shown next to the buttons. */
  readonly labels?: Readonly<Record<string, string>>
  /** The label of the run's metric row whose per-case values are the judge's verdicts on this dimension. */
  readonly judge?: string
}

export interface Rubric {
  readonly title?: string
  readonly instructions?: string
  readonly dimensions: readonly RubricDimension[]
  readonly pairwise: { readonly text: string }
}

/** A rubric that cannot be used; the message names the file and the key. */
export class RubricError extends Error {}

/** Used when `--rate` is given without `--rubric`: one 1–5 dimension. */
export const DEFAULT_RUBRIC: Rubric = {
  dimensions: [{ name: 'overall', scale: '1-5', text: 'How good is the answer to the question, given the retrieved contexts? 1 poor … 5 excellent.' }],
  pairwise: { text: 'Which answer answers the question better?' },
}

const DEFAULT_PAIRWISE = DEFAULT_RUBRIC.pairwise
const MAX_TEXT = 4000
const MAX_NAME = 60

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function onlyKeys(where: string, o: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new RubricError(`${where}: unknown key ${JSON.stringify(k)} (keys: ${keys.join(', ')})`)
}

function text(where: string, v: unknown, max = MAX_TEXT): string {
  if (typeof v !== 'string' || v.trim() === '') throw new RubricError(`${where} must be a non-empty string`)
  if (v.length > max) throw new RubricError(`${where} is longer than ${max} characters`)
  return v
}

/** Checks a parsed rubric; `source` names it in messages. */
export function parseRubric(value: unknown, source = 'the rubric'): Rubric {
  if (!isObject(value)) throw new RubricError(`${source} must be a JSON object with "dimensions"`)
  onlyKeys(source, value, ['title', 'instructions', 'dimensions', 'pairwise'])
  if (!Array.isArray(value.dimensions) || value.dimensions.length === 0) throw new RubricError(`${source}: "dimensions" must be a non-empty array`)
  const names = new Set<string>()
  const dimensions = value.dimensions.map((d: unknown, i): RubricDimension => {
    const where = `${source}: dimensions[${i}]`
    if (!isObject(d)) throw new RubricError(`${where} must be an object { name, scale, text }`)
    onlyKeys(where, d, ['name', 'scale', 'text', 'labels', 'judge'])
    const name = text(`${where}.name`, d.name, MAX_NAME)
    if (name === PAIRWISE_DIMENSION) throw new RubricError(`${where}.name "${PAIRWISE_DIMENSION}" is the pairwise mode's; pick another name`)
    if (names.has(name)) throw new RubricError(`${where}.name ${JSON.stringify(name)} is given twice`)
    names.add(name)
    if (d.scale !== '1-5' && d.scale !== 'pass-fail') throw new RubricError(`${where}.scale must be "1-5" or "pass-fail", got ${JSON.stringify(d.scale)}`)
    let labels: Record<string, string> | undefined
    if (d.labels !== undefined) {
      if (!isObject(d.labels)) throw new RubricError(`${where}.labels must be an object { "1": "…" }`)
      const points = d.scale === '1-5' ? ['1', '2', '3', '4', '5'] : ['pass', 'fail']
      labels = {}
      for (const [k, v] of Object.entries(d.labels)) {
        if (!points.includes(k)) throw new RubricError(`${where}.labels: ${JSON.stringify(k)} is not a point of the scale (${points.join(', ')})`)
        labels[k] = text(`${where}.labels.${k}`, v, 200)
      }
    }
    return {
      name,
      scale: d.scale,
      text: text(`${where}.text`, d.text),
      ...(labels !== undefined ? { labels } : {}),
      ...(d.judge !== undefined ? { judge: text(`${where}.judge`, d.judge, 500) } : {}),
    }
  })
  let pairwise = DEFAULT_PAIRWISE
  if (value.pairwise !== undefined) {
    if (!isObject(value.pairwise)) throw new RubricError(`${source}: "pairwise" must be an object { text }`)
    onlyKeys(`${source}: pairwise`, value.pairwise, ['text'])
    pairwise = { text: text(`${source}: pairwise.text`, value.pairwise.text) }
  }
  return {
    ...(value.title !== undefined ? { title: text(`${source}: title`, value.title, 200) } : {}),
    ...(value.instructions !== undefined ? { instructions: text(`${source}: instructions`, value.instructions) } : {}),
    dimensions,
    pairwise,
  }
}

/** Reads and checks the rubric file at `path`. */
export function loadRubric(path: string): Rubric {
  let raw: string
  try {
    raw = readFileSync(path, 'utf8')
  } catch (error) {
    throw new RubricError(`cannot read the rubric ${path}: ${(error as Error).message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    throw new RubricError(`the rubric ${path} is not JSON: ${(error as Error).message}`)
  }
  return parseRubric(value, path)
}

/** Whether `score` is a point of the dimension's scale. */
export function onScale(d: RubricDimension, score: unknown): boolean {
  return d.scale === '1-5' ? typeof score === 'number' && Number.isInteger(score) && score >= 1 && score <= 5 : score === 'pass' || score === 'fail'
}
