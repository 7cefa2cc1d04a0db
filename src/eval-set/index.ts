export {
  DatasetError,
  loadDataset,
  parseDataset,
  withKeywordGroundTruth,
  type Dataset,
  type DatasetFormat,
  type EvalItem,
  type ParseDatasetOptions,
} from './load-dataset.js'
export {
  isCiEnvironment,
  runEvalSet,
  type EvalCaseError,
  type EvalProgress,
  type EvalRun,
  type EvalRunCase,
  type EvalRunItem,
  type Pipeline,
  type PipelineContext,
  type PipelineOutput,
  type ProgressStream,
  type RunEvalSetOptions,
} from './run-eval-set.js'
export { assertMetricName, computeMetric, isMetricName, mergeSignatures, metricKind, metricRunOf, metricScale, METRIC_NAMES, type MetricValue } from './metrics.js'
export {
  compareRuns,
  type CaseDelta,
  type CompareRunsOptions,
  type ComparisonStatus,
  type MetricComparison,
  type MetricRun,
  type MetricValues,
  type RunComparison,
  type SignificanceTest,
} from './compare-runs.js'
export { mulberry32, pairedBootstrap, quantileSorted, signFlipTest, type PairedTestOptions, type PairedTestResult } from './statistics.js'
export {
  BASELINE_DIR,
  BASELINE_FORMAT_VERSION,
  BaselineFileError,
  baselinePathFor,
  readBaselineFile,
  serializeBaselineFile,
  updateBaselineFile,
  validateBaselineFile,
  writeBaselineEntry,
  type BaselineEntry,
  type BaselineFile,
  type BaselineLockOptions,
} from './baseline-file.js'

