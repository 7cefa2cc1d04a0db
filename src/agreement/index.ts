// Internal barrel: the public entry (public.ts) plus helpers the core and tests use.
export * from './public.js'
export { averageRanks } from './correlation.js'
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
