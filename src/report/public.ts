/**
 * `rag-matchers/report`: the rag-report.json model and what builds, merges and renders it (terminal
 * table, self-contained HTML), plus the recorded-assertion schema the reporters read. Runner-neutral;
 * the Vitest/Jest reporters themselves are `rag-matchers/reporter` and `rag-matchers/jest-reporter`.
 */
export {
  buildReport,
  REPORT_SCHEMA_VERSION,
  type BaselineComparison,
  type BuildReportOptions,
  type CaseRow,
  type CaseValue,
  type EvalSetSection,
  type FileSection,
  type MetricRow,
  type RagReport,
  type ReportAssertion,
} from './model.js'
export { mergeReports, mergeReportFiles } from './merge.js'
export { renderHtml } from './html.js'
export { renderTable } from './table.js'
export { renderMarkdown } from './markdown.js'
export { writeReport } from './output.js'
export type { RecordedAssertion, RecordedCaseText, RecordedCaseValue, RecordedTest } from './record.js'
