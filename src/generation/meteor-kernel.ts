/**
 * The WebAssembly path of METEOR's alignment (`meteor-kernel.wat`, assembled into `meteor-kernel-wasm.ts`): one
 * candidate against one reference, as places in METEOR's vocabulary (what the word kernel writes; meteor-words.ts).
 * The caller supplies a word's stem (a place), its synonyms (form entries) and its WordNet form entry the first time
 * the kernel needs them; the kernel keeps them per place until {@link MeteorKernel.reset} (the vocabulary started
 * over).
 */
import { METEOR_KERNEL_WASM } from './meteor-kernel-wasm.js'
import { compileKernel, instantiateKernel, type WasmMemory } from '../wasm-api.js'

/** The most tokens a side may have: every text the word kernel tokenizes fits. */
export const METEOR_KERNEL_MAX_SIDE = (1 << 15) + 1

// the layout: per position (hyp, ref, their stems, codes, nextDown as i32; matched as bytes), the result, then the
// tables by place (stemOf, synOf, keyOf, lastOf), the list heads by form entry and the arena, which move as they grow
// (see regions())
const HYP_AT = 0
const REF_AT = HYP_AT + 4 * METEOR_KERNEL_MAX_SIDE
const HYP_STEMS_AT = REF_AT + 4 * METEOR_KERNEL_MAX_SIDE
const REF_STEMS_AT = HYP_STEMS_AT + 4 * METEOR_KERNEL_MAX_SIDE
const CODES_AT = REF_STEMS_AT + 4 * METEOR_KERNEL_MAX_SIDE
const NEXT_DOWN_AT = CODES_AT + 4 * METEOR_KERNEL_MAX_SIDE
const RESULT_AT = NEXT_DOWN_AT + 4 * METEOR_KERNEL_MAX_SIDE
const MATCHED_AT = RESULT_AT + 16
const TABLES_AT = MATCHED_AT + METEOR_KERNEL_MAX_SIDE + 3 // rounded up to 4 below
const TABLES_START = TABLES_AT - (TABLES_AT % 4)

const FIRST_PLACES = 1 << 12
const FIRST_ENTRIES = 1 << 12
const FIRST_ARENA = 1 << 14
const PAGE = 65536

/** Flags of {@link MeteorKernel.align}. */
export const STEM_STAGE = 1
export const SYNONYM_STAGE = 2

interface KernelExports {
  readonly memory: WasmMemory
  setup(hyp: number, ref: number, hypStems: number, refStems: number, codes: number, matched: number, nextDown: number, result: number): void
  tables(stemOf: number, synOf: number, keyOf: number, lastOf: number, entryHeads: number, arena: number): void
  align(hypLength: number, refLength: number, flags: number): number
}

/** The place of a word's Porter stem. */
export type StemPlace = (place: number) => number
/**
 * A word's WordNet synonyms (any order; repeats allowed), each as its form entry (see {@link FormEntry}), or as
 * `-(place + 1)` for a name that is no form.
 */
export type SynonymKeys = (place: number) => readonly number[]
/** The WordNet form entry of a word's text (equal texts, equal entries), or -1 when it is no form. */
export type FormEntry = (place: number) => number

/** Where each table starts, for `places` places, `entries` form entries and an arena of `arena` i32s (all in i32s). */
function regions(places: number, entries: number, arena: number): readonly number[] {
  const stemOf = TABLES_START / 4
  // stemOf, synOf, keyOf, lastOf (per place), the entry heads, the arena; and the end
  return [stemOf, stemOf + places, stemOf + 2 * places, stemOf + 3 * places, stemOf + 4 * places, stemOf + 4 * places + entries, stemOf + 4 * places + entries + arena]
}

export class MeteorKernel {
  private readonly exports: KernelExports
  /** The whole memory as i32, remade when it grows. */
  private words: Int32Array
  /** Capacity of the tables by place and by form entry, of the arena (in i32s), and the arena's used part. */
  private places = FIRST_PLACES
  private entries = 0
  private arenaSize = FIRST_ARENA
  private arenaUsed = 0

  private constructor(module: object, stem: StemPlace, synonyms: SynonymKeys, key: FormEntry) {
    const imports = {
      meteor: {
        stem: (place: number): number => {
          const s = stem(place)
          this.fit(s + 1, 0, 0)
          return s
        },
        synonyms: (place: number): number => this.addList(synonyms(place)),
        key: (place: number): number => {
          const entry = key(place)
          this.fit(0, entry + 1, 0)
          return entry
        },
      },
    }
    this.exports = instantiateKernel<KernelExports>(module, imports)
    this.exports.setup(HYP_AT, REF_AT, HYP_STEMS_AT, REF_STEMS_AT, CODES_AT, MATCHED_AT, NEXT_DOWN_AT, RESULT_AT)
    this.words = this.layout(regions(FIRST_PLACES, 0, FIRST_ARENA))
    this.words.fill(-1, TABLES_START / 4, TABLES_START / 4 + 4 * FIRST_PLACES)
  }

  /** The kernel, or null where this runtime has no WebAssembly (then meteor.ts aligns in JS). */
  static create(stem: StemPlace, synonyms: SynonymKeys, key: FormEntry): MeteorKernel | null {
    const module = compileKernel(METEOR_KERNEL_WASM)
    return module === null ? null : new MeteorKernel(module, stem, synonyms, key)
  }

  /**
   * Aligns the first `hypLength` places of {@link hyp} with the first `refLength` of {@link ref}, every place below
   * `placeCount`; returns the matches. {@link codes} and {@link result} hold the rest until the next call.
   */
  align(hypLength: number, refLength: number, flags: number, placeCount: number): number {
    this.fit(placeCount, 0, 0)
    try {
      return this.exports.align(hypLength, refLength, flags)
    } catch (error) {
      // a call out failed (WordNet could not load) mid-stage: list heads may be set
      this.reset()
      throw error
    }
  }

  /** Where the candidate's places go; this and the views below are remade when the memory grows. */
  hyp!: Int32Array
  ref!: Int32Array
  /** Per candidate position: `4 · reference position + stage` (1 exact, 2 stem, 3 synonym), or -1. */
  codes!: Int32Array
  /** Matches by the exact, stem and synonym stages, then the chunks. */
  result!: Int32Array

  /**
   * Forgets every stem, synonym list and form entry (the caller's places start over, or the WordNet data changed) and
   * clears the list heads.
   */
  reset(): void {
    const [stemOf, , , , , arena] = regions(this.places, this.entries, this.arenaSize)
    this.words.fill(-1, stemOf, arena)
    this.arenaUsed = 0
  }

  /** Writes a synonym list to the arena; returns its index. */
  private addList(list: readonly number[]): number {
    let places = 0
    let entries = 0
    for (const key of list) {
      if (key < 0) places = Math.max(places, -key)
      else entries = Math.max(entries, key + 1)
    }
    this.fit(places, entries, list.length + 1)
    const index = this.arenaUsed
    const at = regions(this.places, this.entries, this.arenaSize)[5]! + index
    this.words[at] = list.length
    for (let k = 0; k < list.length; k++) this.words[at + 1 + k] = list[k]!
    this.arenaUsed += list.length + 1
    return index
  }

  /**
   * Makes the tables hold `placeCount` places and `entryCount` entries and the arena `more` i32s more, moving what they
   * hold (a stage may be in progress: its list heads move too).
   */
  private fit(placeCount: number, entryCount: number, more: number): void {
    if (placeCount <= this.places && entryCount <= this.entries && this.arenaUsed + more <= this.arenaSize) return
    let places = this.places
    while (places < placeCount) places *= 2
    let entries = this.entries
    if (entries < entryCount) entries = Math.max(entries, FIRST_ENTRIES)
    while (entries < entryCount) entries *= 2
    let arenaSize = this.arenaSize
    while (arenaSize < this.arenaUsed + more) arenaSize *= 2
    const from = regions(this.places, this.entries, this.arenaSize)
    const to = regions(places, entries, arenaSize)
    const used = [this.places, this.places, this.places, this.places, this.entries, this.arenaUsed]
    const words = this.layout(to)
    // every region moves up or stays, so moving the highest first never overwrites one not yet moved
    for (let r = 5; r >= 0; r--) {
      words.copyWithin(to[r]!, from[r]!, from[r]! + used[r]!)
      if (r < 5) words.fill(-1, to[r]! + used[r]!, to[r + 1]!)
    }
    this.places = places
    this.entries = entries
    this.arenaSize = arenaSize
    this.words = words
  }

  /** Grows the memory to hold `at` (from {@link regions}); tells the kernel; remakes the views. */
  private layout(at: readonly number[]): Int32Array {
    const memory = this.exports.memory
    const pages = Math.ceil((4 * at[6]!) / PAGE) - memory.buffer.byteLength / PAGE
    if (pages > 0) memory.grow(pages)
    this.exports.tables(4 * at[0]!, 4 * at[1]!, 4 * at[2]!, 4 * at[3]!, 4 * at[4]!, 4 * at[5]!)
    const words = new Int32Array(memory.buffer)
    this.hyp = words.subarray(HYP_AT / 4, HYP_AT / 4 + METEOR_KERNEL_MAX_SIDE)
    this.ref = words.subarray(REF_AT / 4, REF_AT / 4 + METEOR_KERNEL_MAX_SIDE)
    this.codes = words.subarray(CODES_AT / 4, CODES_AT / 4 + METEOR_KERNEL_MAX_SIDE)
    this.result = words.subarray(RESULT_AT / 4, RESULT_AT / 4 + 4)
    return words
  }
}
