/**
 * How a metric row is rounded and its threshold written: the terminal table's own functions
 * (src/report/table.ts, bundled into the app), so the UI and the reports agree digit for digit.
 */
export { decimalsFor as decimalsOf, thresholdText as thresholdOf } from '../../src/report/table.js'
