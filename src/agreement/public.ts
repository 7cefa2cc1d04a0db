/**
 * `rag-matchers/agreement`: inter-rater agreement (Cohen's/Fleiss' kappa, Krippendorff's alpha),
 * correlations, win rates and Bradley–Terry, human-ratings loading, the agreement report and
 * metric-vs-human alignment. Curated: distribution functions and matrix helpers stay internal.
 */
export type { Score } from '../score.js'
export { MetricInputError } from '../errors.js'
export type { Label, LabelKind } from './shared.js'
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
export { fleissKappa, aggregateRatings, type AggregatedRatings, type FleissKappaDetails, type FleissKappaOptions, type FleissMethod } from './fleiss-kappa.js'
export { krippendorffAlpha, type KrippendorffAlphaDetails, type KrippendorffAlphaOptions, type KrippendorffLevel, type ReliabilityValue } from './krippendorff-alpha.js'
export { pearson, spearman, kendallTau, type CorrelationDetails, type CorrelationMethod, type CorrelationScore } from './correlation.js'
export { winRate, wilsonInterval, type TiesConvention, type WilsonInterval, type WinCounts, type WinRateDetails, type WinRateOptions } from './win-rate.js'
export { bradleyTerry, winProbability, countWins, type BradleyTerryDetails, type BradleyTerryEntry, type BradleyTerryOptions, type Comparison } from './bradley-terry.js'
export { loadRatings, parseRatings, RatingsParseError, type PairwiseRating, type ParseRatingsOptions, type Ratings, type RatingsFormat, type ScoreRating } from './ratings.js'
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
  humanAlignment,
  parseJudged,
  loadJudged,
  HumanAlignmentInputError,
  type AlignmentDisagreement,
  type AlignmentStatistic,
  type HumanAlignmentDetails,
  type HumanAlignmentOptions,
  type JudgedItem,
  type JudgedPreference,
  type JudgedRating,
} from './human-alignment.js'
