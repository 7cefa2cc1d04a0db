/** The shape of per-case metric values, shared by the metric registry, baseline files and run comparison. */

/** One metric's values in one run: the signature that produced them and a value per case id. */
export interface MetricValues {
  readonly signature: string
  readonly values: Readonly<Record<string, number>>
  /** `false` when lower values are better (TER, error rates), so a comparison counts a rise as the regression. Absent: higher is better. */
  readonly higherIsBetter?: boolean
}

/** Per-case values of several metrics, e.g. a baseline file entry. */
export interface MetricRun {
  readonly metrics: Readonly<Record<string, MetricValues>>
}
