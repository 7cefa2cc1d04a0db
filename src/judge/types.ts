/**
 * A judge answers structured questions about texts. The concrete interface is defined by the judge
 * module; this placeholder lets the matcher configuration refer to it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Judge {
  readonly id: string
}
