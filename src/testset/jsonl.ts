import type { GeneratedEvalItem } from './generate-eval-set.js'

/**
 * The eval set as JSON Lines, one item per line in the item's own key order, ending with a newline:
 * the file loadDataset reads as it is. Same items, same bytes.
 *
 * @example evalSetToJsonl(items) // '{"id":"factual-c3","question":"…","keyword":"…","relevant":["c3"],…}\n…'
 */
export function evalSetToJsonl(items: readonly GeneratedEvalItem[]): string {
  return items.map((item) => JSON.stringify(item)).join('\n') + (items.length > 0 ? '\n' : '')
}
