/**
 * `rag-matchers/eval-set`: datasets (load/parse), running a pipeline over an eval set, per-metric
 * runs, run comparison with paired significance tests, and baseline files. Curated: PRNG, quantile,
 * CI detection and signature-merging helpers stay internal.
 */
export type { Score } from '../score.js'
export type { EvalCase } from '../eval-case.js'
export { MetricInputError } from '../errors.js'
export {
  loadDataset,
  loadCorpus,
  parseDataset,
  withKeywordGroundTruth,
  DatasetError,
  type CorpusChunk,
  type CorpusSource,
  type Dataset,
  type DatasetFormat,
  type EvalItem,
  type ParseDatasetOptions,
} from './load-dataset.js'
export {
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
export { computeMetric, metricRunOf, isMetricName, METRIC_NAMES, type MetricValue } from './metrics.js'
export type { MetricRun, MetricValues } from './metric-run.js'
export {
  compareRuns,
  COMPARED_STATUSES,
  type CaseCoverage,
  type CaseDelta,
  type CompareRunsOptions,
  type ComparisonStatus,
  type CoverageReport,
  type MetricComparison,
  type PowerReport,
  type RunComparison,
  type SignificanceTest,
} from './compare-runs.js'
export { pairedBootstrap, signFlipTest, smallestAttainableP, fewestCasesToReach, type PairedTestOptions, type PairedTestResult } from './statistics.js'
export { identitySignature, currentRevision, METRIC_REVISIONS, type MetricRevision } from './metric-revisions.js'
export { measureName } from './measure-names.js'
export {
  BASELINE_DIR,
  BASELINE_FORMAT_VERSION,
  BaselineFileError,
  baselinePathFor,
  readBaselineFile,
  writeBaselineEntry,
  updateBaselineFile,
  validateBaselineFile,
  type BaselineEntry,
  type BaselineFile,
  type BaselineLockOptions,
  type BaselineMetric,
} from './baseline-file.js'
