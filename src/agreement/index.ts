export {
  cohenKappa,
  cohenKappaTable,
  confusionMatrix,
  formatKappaSummary,
  type CohenKappaDetails,
  type CohenKappaOptions,
  type CohenKappaTableDetails,
  type CohenKappaTableOptions,
  type KappaTableWeighting,
  type KappaWeighting,
} from './cohen-kappa.js'
export { aggregateRatings, fleissKappa, type AggregatedRatings, type FleissKappaDetails, type FleissKappaOptions, type FleissMethod } from './fleiss-kappa.js'
export {
  krippendorffAlpha,
  type KrippendorffAlphaDetails,
  type KrippendorffAlphaOptions,
  type KrippendorffLevel,
  type ReliabilityValue,
} from './krippendorff-alpha.js'
export {
  averageRanks,
  kendallTau,
  pearson,
  spearman,
  type CorrelationDetails,
  type CorrelationMethod,
  type CorrelationScore,
} from './correlation.js'
export {
  wilsonInterval,
  winRate,
  type TiesConvention,
  type WilsonInterval,
  type WinCounts,
  type WinRateDetails,
  type WinRateOptions,
} from './win-rate.js'
export {
  bradleyTerry,
  countWins,
  winProbability,
  type BradleyTerryDetails,
  type BradleyTerryEntry,
  type BradleyTerryOptions,
  type Comparison,
} from './bradley-terry.js'
export {
  loadRatings,
  parseRatings,
  RatingsParseError,
  type PairwiseRating,
  type ParseRatingsOptions,
  type Ratings,
  type RatingsFormat,
  type ScoreRating,
} from './ratings.js'
export {
  agreementReport,
  type AgreementReportDetails,
  type AgreementReportOptions,
  type DimensionReport,
  type DisputedItem,
  type PairwiseKappa,
  type ReportStatistic,
  type ScoreRatingInput,
} from './report.js'
export {
  metricAlignment,
  type AlignmentMethod,
  type ItemValues,
  type MetricAlignmentDetails,
  type MetricAlignmentOptions,
  type PassFailDisagreement,
  type RankDisagreement,
} from './alignment.js'
export {
  betaCdf,
  betaSf,
  erf,
  erfc,
  logBeta,
  logGamma,
  normalCdf,
  normalIsf,
  normalPdf,
  normalPpf,
  normalSf,
  regularizedBeta,
  studentT,
  type BetaTails,
} from './distributions.js'
export type { Label, LabelKind } from './shared.js'
