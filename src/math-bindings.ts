/**
 * Math's functions bound once, for the per-character and per-draw loops.
 *
 * Under Jest, library code runs inside a `vm` context, and V8 cannot optimise a global lookup there:
 * every `Math.imul` in a hashing loop goes through the context's interceptor. Measured with
 * bench/large-eval-set.mjs and a 10,000-resample bootstrap over 1,000 differences: 12.5 s under Jest
 * against 0.1 s in plain Node; with these bindings 0.3 s. A module binding is an ordinary variable in
 * every runner, so the Vitest and plain-Node paths lose nothing.
 */
export const { abs, floor, imul } = Math
