/**
 * Special functions and distribution tails that the agreement p-values and intervals need, written here
 * (no dependency) to the accuracy the scipy 1.10.1 references are checked at: relative error around
 * 1e-14 in the tails that matter (erfc, the regularised incomplete beta), so p-values agree with scipy to
 * far better than 1e-9.
 *
 * Methods (all standard textbook material, implemented from the formulas):
 * - `erfc`: Maclaurin series of erf (|x| < 0.5), the positive-term series
 *   erf x = (2/√π)·e^{−x²}·Σ 2ⁿx^{2n+1}/(1·3·…·(2n+1)) (0.5 ≤ x < 1), and Laplace's continued fraction
 *   erfc x = (e^{−x²}/√π)·1/(x + ½/(x + 1/(x + 3⁄2/(x + …)))) for x ≥ 1, evaluated with Lentz's method;
 *   e^{−x²} is evaluated with x split in a high and a low part so the square does not lose digits.
 * - `logGamma`: Stirling's series with Bernoulli terms up to x^{−15} for x ≥ 10, upward recurrence below;
 *   ln B(a, b) and the factor x^a (1−x)^b / B(a, b) are arranged so that large logarithms never cancel.
 * - `regularizedBeta`: the continued fraction of Abramowitz & Stegun 26.5.8 with Lentz's method, using the
 *   symmetry I_x(a,b) = 1 − I_{1−x}(b,a) on the side where the fraction converges; the complement is
 *   computed directly on that side, never as 1 − p when p is close to 1.
 */

const SQRT_PI = Math.sqrt(Math.PI)
const TWO_OVER_SQRT_PI = 2 / SQRT_PI
const LN_SQRT_2PI = 0.5 * Math.log(2 * Math.PI)
const EPS = 2.220446049250313e-16
const TINY = 1e-300

/** e^{−x²} without the rounding error of squaring x first (matters in the far tail). */
function expMinusSquare(x: number): number {
  // Split x = hi + lo with hi holding the top 26 bits, so hi² is exact.
  const hi = splitHigh(x)
  const lo = x - hi
  return Math.exp(-hi * hi) * Math.exp(-(2 * hi * lo + lo * lo))
}

function splitHigh(x: number): number {
  const c = 134217729 * x // 2^27 + 1 (Veltkamp splitting)
  return c - (c - x)
}

/** The error function erf(x). */
export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN
  const ax = Math.abs(x)
  if (ax < 0.5) return erfSeries(x)
  const c = erfc(ax)
  return x > 0 ? 1 - c : c - 1
}

/** The complementary error function erfc(x) = 1 − erf(x), accurate in relative terms for large x. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN
  if (x === Number.POSITIVE_INFINITY) return 0
  if (x === Number.NEGATIVE_INFINITY) return 2
  if (x < 0) return 2 - erfc(-x)
  if (x < 0.5) return 1 - erfSeries(x)
  if (x < 1) return 1 - erfPositiveSeries(x)
  if (x > 27.3) return 0 // e^{−x²} underflows: erfc(27.3) < 1e-325
  return erfcContinuedFraction(x)
}

function erfSeries(x: number): number {
  // erf x = 2/√π Σ (−1)ⁿ x^{2n+1} / (n! (2n+1)); terms fall fast for |x| < 0.5.
  const x2 = x * x
  let term = x
  let sum = x
  for (let n = 1; n < 60; n += 1) {
    term *= -x2 / n
    const add = term / (2 * n + 1)
    sum += add
    if (Math.abs(add) < Math.abs(sum) * 1e-17) break
  }
  return TWO_OVER_SQRT_PI * sum
}

function erfPositiveSeries(x: number): number {
  // All terms positive, so no cancellation for moderate x.
  const x2 = x * x
  let term = x
  let sum = x
  for (let n = 1; n < 200; n += 1) {
    term *= (2 * x2) / (2 * n + 1)
    sum += term
    if (term < sum * 1e-17) break
  }
  return TWO_OVER_SQRT_PI * expMinusSquare(x) * sum
}

function erfcContinuedFraction(x: number): number {
  // erfc x = e^{−x²}/√π · 1/(x + a1/(x + a2/(x + …))), a_k = k/2; modified Lentz.
  let f = x
  let c = x
  let d = 0
  for (let k = 1; k < 5000; k += 1) {
    const a = k / 2
    d = x + a * d
    if (Math.abs(d) < TINY) d = TINY
    c = x + a / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = c * d
    f *= delta
    if (Math.abs(delta - 1) < EPS) break
  }
  return expMinusSquare(x) / (SQRT_PI * f)
}

/** Standard normal CDF Φ(x) (scipy `norm.cdf`, `special.ndtr`). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2)
}

/** Standard normal survival function 1 − Φ(x) (scipy `norm.sf`), accurate in the upper tail. */
export function normalSf(x: number): number {
  return 0.5 * erfc(x / Math.SQRT2)
}

/** Standard normal density. */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI)
}

/**
 * Inverse survival function of the standard normal (scipy `norm.isf`): the z with 1 − Φ(z) = q.
 * A rough start (Abramowitz & Stegun 26.2.23) refined by Newton steps on {@link normalSf}, to within an
 * ulp or two: `normalIsf(0.025)` = 1.9599639845400547 (exact 1.95996398454005423…, scipy 1.9599639845400545).
 */
export function normalIsf(q: number): number {
  if (Number.isNaN(q) || q < 0 || q > 1) return Number.NaN
  if (q === 0) return Number.POSITIVE_INFINITY
  if (q === 1) return Number.NEGATIVE_INFINITY
  if (q > 0.5) return -normalIsf(1 - q)
  if (q === 0.5) return 0
  const t = Math.sqrt(-2 * Math.log(q))
  let z = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t)
  for (let i = 0; i < 50; i += 1) {
    // sf'(z) = −pdf(z); Newton on sf(z) − q.
    const step = (normalSf(z) - q) / normalPdf(z)
    z += step
    if (Math.abs(step) <= Math.abs(z) * 1e-16) break
  }
  return z
}

/** Inverse CDF of the standard normal (scipy `norm.ppf`). */
export function normalPpf(p: number): number {
  return -normalIsf(p)
}

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (Number.isNaN(x) || x <= 0) return Number.NaN
  if (x === Number.POSITIVE_INFINITY) return x
  if (x >= STIRLING_MIN) return stirlingMain(x) + stirlingCorrection(x)
  // Γ(x) = Γ(x + n) / (x (x+1) … (x+n−1)), shifting up to the Stirling range.
  let product = 1
  let y = x
  while (y < STIRLING_MIN) {
    product *= y
    y += 1
  }
  return stirlingMain(y) + stirlingCorrection(y) - Math.log(product)
}

const STIRLING_MIN = 10

/** (x − ½) ln x − x + ½ ln 2π. */
function stirlingMain(x: number): number {
  return (x - 0.5) * Math.log(x) - x + LN_SQRT_2PI
}

/** ln Γ(x) − stirlingMain(x) for x ≥ 10: Σ_{k=1..8} B_{2k} / (2k (2k−1) x^{2k−1}) (error < 1e-18). */
function stirlingCorrection(x: number): number {
  const inv = 1 / x
  const inv2 = inv * inv
  return inv * (1 / 12 + inv2 * (-1 / 360 + inv2 * (1 / 1260 + inv2 * (-1 / 1680 + inv2 * (1 / 1188 + inv2 * (-691 / 360360 + inv2 * (1 / 156 + inv2 * (-3617 / 122400))))))))
}

/** ln Γ(big) − ln Γ(big + small) for big ≥ 10, without subtracting two large logarithms. */
function logGammaRatio(big: number, small: number): number {
  // (big − ½)(ln big − ln(big+small)) − small·ln(big+small) + small + Δ(correction terms)
  return -(big - 0.5) * Math.log1p(small / big) - small * Math.log(big + small) + small + (stirlingCorrection(big) - stirlingCorrection(big + small))
}

/** ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b), arranged so large arguments do not cancel. */
export function logBeta(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b) || a <= 0 || b <= 0) return Number.NaN
  const small = Math.min(a, b)
  const big = Math.max(a, b)
  if (big < STIRLING_MIN) return logGamma(a) + logGamma(b) - logGamma(a + b)
  if (small < STIRLING_MIN) return logGamma(small) + logGammaRatio(big, small)
  // Both large: Stirling for all three terms, ln B = ½ln 2π − ½ln(ab/s) − a·ln(s/a) − b·ln(s/b) − Δ.
  const sum = a + b
  return (
    -0.5 * Math.log((a * b) / sum) + LN_SQRT_2PI - a * Math.log(sum / a) - b * Math.log(sum / b) - (stirlingCorrection(sum) - stirlingCorrection(a) - stirlingCorrection(b))
  )
}

/**
 * x^a · y^b / B(a, b) with y = 1 − x, the factor in front of the beta continued fraction. For a, b ≥ 10
 * Stirling's formula turns it into √(ab / (2π(a+b))) · (x/x₀)^a · (y/y₀)^b · e^{Δ}, x₀ = a/(a+b), so the
 * large logarithms never cancel; near x₀ the powers go through log1p of (x − x₀)/x₀.
 */
function betaPowerTerms(x: number, y: number, a: number, b: number): number {
  if (a >= STIRLING_MIN && b >= STIRLING_MIN) {
    const sum = a + b
    const x0 = a / sum
    const y0 = b / sum
    const dx = (x * b - y * a) / sum // x − x₀, formed without cancellation
    const scale = Math.sqrt((a * b) / (2 * Math.PI * sum))
    const correction = stirlingCorrection(sum) - stirlingCorrection(a) - stirlingCorrection(b)
    // Near x₀ the ratio x/x₀ rounds badly, so go through log1p(dx/x₀); far from it pow keeps full accuracy.
    const nearA = Math.abs(dx) < 0.5 * x0
    const nearB = Math.abs(dx) < 0.5 * y0
    const factorA = nearA ? Math.exp(a * Math.log1p(dx / x0)) : Math.pow(x / x0, a)
    const factorB = nearB ? Math.exp(b * Math.log1p(-dx / y0)) : Math.pow(y / y0, b)
    const product = scale * factorA * factorB * Math.exp(correction)
    if (product > 1e-290 && Number.isFinite(product) && factorA > 1e-290 && factorB > 1e-290) return product
    const logA = nearA ? a * Math.log1p(dx / x0) : a * Math.log(x / x0)
    const logB = nearB ? b * Math.log1p(-dx / y0) : b * Math.log(y / y0)
    return Math.exp(Math.log(scale) + logA + logB + correction)
  }
  const lb = logBeta(a, b)
  const px = Math.pow(x, a)
  const py = Math.pow(y, b)
  const direct = (px * py) / Math.exp(lb)
  // pow keeps full relative accuracy where a·ln x would round; fall back to logs on under/overflow.
  if (px > 1e-290 && py > 1e-290 && Number.isFinite(direct) && direct > 1e-290) return direct
  return Math.exp(a * Math.log(x) + b * (x < 0.5 ? Math.log1p(-x) : Math.log(y)) - lb)
}

/** Both tails of the regularised incomplete beta function. */
export interface BetaTails {
  /** I_x(a, b). */
  readonly lower: number
  /** 1 − I_x(a, b), computed without cancellation. */
  readonly upper: number
}

/**
 * The regularised incomplete beta function I_x(a, b) and its complement, for a, b > 0 and x ∈ [0, 1].
 * `y` may pass 1 − x when the caller knows it more accurately than `1 - x` (scipy's cdflib does the same).
 */
export function regularizedBeta(x: number, a: number, b: number, y: number = 1 - x): BetaTails {
  if ([x, a, b, y].some(Number.isNaN) || a <= 0 || b <= 0 || x < 0 || x > 1) return { lower: Number.NaN, upper: Number.NaN }
  if (x === 0) return { lower: 0, upper: 1 }
  if (y <= 0) return { lower: 1, upper: 0 }
  if (x > (a + 1) / (a + b + 2)) {
    const swapped = betaContinuedFraction(y, b, a, x)
    return { lower: 1 - swapped, upper: swapped }
  }
  const lower = betaContinuedFraction(x, a, b, y)
  return { lower, upper: 1 - lower }
}

/** I_x(a, b) by its continued fraction; converges fast for x < (a+1)/(a+b+2). */
function betaContinuedFraction(x: number, a: number, b: number, y: number): number {
  const front = betaPowerTerms(x, y, a, b) / a
  if (front === 0) return 0
  // 1/(1 + d1/(1 + d2/(1 + …))): d_{2m+1} = −(a+m)(a+b+m)x/((a+2m)(a+2m+1)), d_{2m} = m(b−m)x/((a+2m−1)(a+2m)).
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < TINY) d = TINY
  d = 1 / d
  let h = d
  for (let m = 1; m < 10000; m += 1) {
    const m2 = 2 * m
    let coefficient = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + coefficient * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + coefficient / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    h *= d * c
    coefficient = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + coefficient * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + coefficient / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPS) break
  }
  return front * h
}

/**
 * Two tails of Student's t with `df` degrees of freedom at `t` (scipy `special.stdtr(df, t)` is `lower`).
 * Uses P(T ≤ −|t|) = ½·I_{df/(df+t²)}(df/2, ½), with x and 1 − x formed as df/(df+t²) and t²/(df+t²).
 * `df` ≤ 0 or NaN → NaN (scipy returns NaN there too).
 */
export function studentT(t: number, df: number): { readonly cdf: number; readonly sf: number } {
  if (Number.isNaN(t) || Number.isNaN(df) || df <= 0) return { cdf: Number.NaN, sf: Number.NaN }
  if (t === 0) return { cdf: 0.5, sf: 0.5 }
  if (!Number.isFinite(t)) return t > 0 ? { cdf: 1, sf: 0 } : { cdf: 0, sf: 1 }
  const tt = t * t
  const denominator = df + tt
  const tails = regularizedBeta(df / denominator, 0.5 * df, 0.5, tt / denominator)
  const tail = 0.5 * tails.lower
  const body = 0.5 + 0.5 * tails.upper
  return t < 0 ? { cdf: tail, sf: body } : { cdf: body, sf: tail }
}

/** Survival function of Beta(a, b) on [0, 1] at x: 1 − I_x(a, b) (scipy `beta.sf`). */
export function betaSf(x: number, a: number, b: number): number {
  if (x <= 0) return 1
  if (x >= 1) return 0
  return regularizedBeta(x, a, b).upper
}

/** CDF of Beta(a, b) on [0, 1] at x: I_x(a, b) (scipy `beta.cdf`, `special.btdtr`). */
export function betaCdf(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  return regularizedBeta(x, a, b).lower
}
