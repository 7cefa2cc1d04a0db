import type { JsonSchema, JsonType } from './types.js'

const SUPPORTED = new Set([
  'type',
  'title',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
])

/**
 * Validates `value` against the JSON-Schema subset in {@link JsonSchema} and returns the problems as
 * `path: message` strings (empty = valid). Written here rather than pulled in as a dependency because the
 * judge's schemas use only this small subset; a keyword outside it throws, so a schema can never be
 * silently half-checked.
 *
 * @example validateJson({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, { n: 1.5 })
 * // ['$.n: expected integer, got 1.5']
 */
export function validateJson(schema: JsonSchema, value: unknown, path = '$'): string[] {
  for (const key of Object.keys(schema)) {
    if (!SUPPORTED.has(key)) throw new Error(`validateJson: unsupported schema keyword \`${key}\` at ${path}`)
  }
  const problems: string[] = []
  if (schema.type !== undefined) {
    const types: readonly JsonType[] = typeof schema.type === 'string' ? [schema.type] : schema.type
    if (!types.some((t) => hasType(value, t))) {
      problems.push(`${path}: expected ${types.join(' or ')}, got ${show(value)}`)
      return problems
    }
  }
  if (schema.enum !== undefined && !schema.enum.some((allowed) => allowed === value)) {
    problems.push(`${path}: expected one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}, got ${show(value)}`)
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: expected ≥ ${schema.minimum}, got ${value}`)
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: expected ≤ ${schema.maximum}, got ${value}`)
  }
  if (typeof value === 'string') {
    // Code points, as JSON Schema counts length.
    const length = [...value].length
    if (schema.minLength !== undefined && length < schema.minLength) problems.push(`${path}: expected at least ${schema.minLength} characters`)
    if (schema.maxLength !== undefined && length > schema.maxLength) problems.push(`${path}: expected at most ${schema.maxLength} characters`)
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${path}: expected at least ${schema.minItems} items, got ${value.length}`)
    if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${path}: expected at most ${schema.maxItems} items, got ${value.length}`)
    if (schema.items !== undefined) {
      const items = schema.items
      value.forEach((item, i) => problems.push(...validateJson(items, item, `${path}[${i}]`)))
    }
  }
  if (isPlainObject(value)) {
    for (const key of schema.required ?? []) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) problems.push(`${path}: missing required property \`${key}\``)
    }
    const properties = schema.properties ?? {}
    for (const [key, member] of Object.entries(value)) {
      const sub = properties[key]
      if (sub !== undefined) problems.push(...validateJson(sub, member, `${path}.${key}`))
      else if (schema.additionalProperties === false) problems.push(`${path}: unexpected property \`${key}\``)
    }
  }
  return problems
}

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value)
    case 'array':
      return Array.isArray(value)
    case 'string':
      return typeof value === 'string'
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'null':
      return value === null
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function show(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}
