;; Words of an ASCII text as WebAssembly, by one of two rules: ROUGE's default tokenizer (mode 0: the [A-Za-z0-9] runs)
;; or Python's str.split() (mode 1: the runs of bytes that are not ASCII whitespace, as METEOR splits), lower-cased.
;; Each word is looked up in a table of the words seen so far (kept across calls) and mapped to the caller's id,
;; which the imported resolve() supplies the first time a word is met for a setting (ROUGE's two stemmer settings).
;; word-kernel.ts drives it; rouge.ts and meteor.ts keep their JS paths for non-ASCII texts and for long ones.
;; Assembled by scripts/build-wasm.mjs into word-kernel-wasm.ts; test/src/generation/word-kernel.test.ts holds it to
;; rougeDefaultTokenize and to Python's split and lower.
;;
;; Why WebAssembly: a test file meets a metric cold, and a JS scan runs its first thousands of texts in V8's baseline
;; tiers; this code needs no warm-up.
;;
;; tokens(len, setting) reads the len bytes at the text region (ASCII only: word-kernel.ts checks), lower-cases them
;; in place and writes the id of each word whose id is not -1 (ROUGE: an empty stem) to the out region; returns how
;; many, or (nothing done) -1 when the table might not have room for the text's words (the caller then calls grow()
;; or, at the largest size, reset(), and retries) or -2 when the key bytes might not (the caller resets).
;;
;; The table starts small and doubles (grow) as words come: a process that meets a few thousand words touches a few
;; hundred kB of it instead of all its 4 MB, and each page first touched costs a page fault.
(module
  ;; resolve(start, end): the id of the word at text bytes [start, end) under the current setting
  (import "words" "resolve" (func $resolve (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; layout, set by setup()
  (global $textP (mut i32) (i32.const 0)) ;; the text, then 16 readable bytes (hashes load 8 at a time)
  (global $outP (mut i32) (i32.const 0)) ;; i32 per token written
  ;; 32 bytes per slot: a word's first 8 bytes (zero-padded), its hash, its length (0: an empty slot), the address of
  ;; its bytes past the first 8, its id per setting 0, 1, 2 (-2 until resolved)
  (global $slotsP (mut i32) (i32.const 0))
  (global $bits (mut i32) (i32.const 0)) ;; log2 of the slots in use
  (global $scratchP (mut i32) (i32.const 0)) ;; grow() copies the table here before it spreads it over twice the slots
  (global $maxRuns (mut i32) (i32.const 0)) ;; at most half the slots
  (global $keysP (mut i32) (i32.const 0)) ;; the runs' bytes past their first 8, one after another
  (global $keysEnd (mut i32) (i32.const 0))
  ;; the table's state
  (global $runCount (mut i32) (i32.const 0))
  (global $keysUsed (mut i32) (i32.const 0)) ;; address of the next free key byte
  (global $mode (mut i32) (i32.const 0)) ;; 0: [a-z0-9] runs; 1: runs of non-whitespace

  (func (export "setup") (param $mode i32) (param $text i32) (param $out i32) (param $slots i32) (param $bits i32)
        (param $keys i32) (param $keyBytes i32) (param $scratch i32)
    (global.set $mode (local.get $mode))
    (global.set $scratchP (local.get $scratch))
    (global.set $textP (local.get $text))
    (global.set $outP (local.get $out))
    (global.set $slotsP (local.get $slots))
    (global.set $bits (local.get $bits))
    (global.set $maxRuns (i32.shl (i32.const 1) (i32.sub (local.get $bits) (i32.const 1))))
    (global.set $keysP (local.get $keys))
    (global.set $keysEnd (i32.add (local.get $keys) (local.get $keyBytes)))
    ;; a fresh memory is all zeros: every slot is empty
    (global.set $runCount (i32.const 0))
    (global.set $keysUsed (global.get $keysP)))

  ;; Forgets every run (and so every id resolve() gave).
  (func $reset (export "reset")
    (memory.fill (global.get $slotsP) (i32.const 0) (i32.shl (i32.const 32) (global.get $bits)))
    (global.set $runCount (i32.const 0))
    (global.set $keysUsed (global.get $keysP)))

  ;; Doubles the table: every slot is copied to the scratch region, then put back at its place among twice as many
  ;; (from its hash); the words and their ids stay.
  (func (export "grow")
    (local $old i32) (local $from i32) (local $end i32) (local $slot i32) (local $mask i32) (local $at i32)
    (local.set $old (i32.shl (i32.const 32) (global.get $bits)))
    (memory.copy (global.get $scratchP) (global.get $slotsP) (local.get $old))
    (global.set $bits (i32.add (global.get $bits) (i32.const 1)))
    (global.set $maxRuns (i32.shl (i32.const 1) (i32.sub (global.get $bits) (i32.const 1))))
    (memory.fill (global.get $slotsP) (i32.const 0) (i32.shl (local.get $old) (i32.const 1)))
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (global.get $bits)) (i32.const 1)))
    (local.set $from (global.get $scratchP))
    (local.set $end (i32.add (global.get $scratchP) (local.get $old)))
    (block $done
      (loop $slots
        (br_if $done (i32.ge_u (local.get $from) (local.get $end)))
        (if (i32.load offset=12 (local.get $from))
          (then
            (local.set $slot (call $home (i32.load offset=8 (local.get $from))))
            (loop $probe
              (local.set $at (i32.add (global.get $slotsP) (i32.shl (local.get $slot) (i32.const 5))))
              (if (i32.load offset=12 (local.get $at))
                (then
                  (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                  (br $probe))))
            (memory.copy (local.get $at) (local.get $from) (i32.const 32))))
        (local.set $from (i32.add (local.get $from) (i32.const 32)))
        (br $slots))))

  ;; The slot a word of hash h is looked for first ($emit writes it out).
  (func $home (param $h i32) (result i32)
    (i32.shr_u (i32.mul (local.get $h) (i32.const 0x9e3779b1)) (i32.sub (i32.const 32) (global.get $bits))))

  ;; Whether the n bytes at a and at b are equal (reads nothing past either).
  (func $same (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $a) (local.get $n)))
    (block $tail
      (loop $words
        (br_if $tail (i32.gt_u (i32.add (local.get $a) (i32.const 8)) (local.get $end)))
        (if (i64.ne (i64.load (local.get $a)) (i64.load (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 8)))
        (local.set $b (i32.add (local.get $b) (i32.const 8)))
        (br $words)))
    (block $equal
      (loop $bytes
        (br_if $equal (i32.ge_u (local.get $a) (local.get $end)))
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $bytes)))
    (i32.const 1))

  ;; Writes the id of the word at bytes [s, e) (lower-cased) as token k unless it is -1; returns the next k. The
  ;; word's slot is found or filled, and its id for this setting asked of resolve() the first time. A slot holds the
  ;; word's first 8 bytes, so most words are told apart without reading anything else (one cache line per lookup).
  (func $emit (param $s i32) (param $e i32) (param $setting i32) (param $k i32) (result i32)
    (local $n i32) (local $h i32) (local $slot i32) (local $mask i32) (local $at i32) (local $head i64)
    (local $id i32) (local $len i32) (local $p i32) (local $h64 i64)
    (local.set $n (i32.sub (local.get $e) (local.get $s)))
    ;; a hash of the n bytes, 8 at a time (the bytes after a run are readable; they are masked off), then its home
    ;; slot, written out here: at one lookup per word, the calls cost more than their work
    (local.set $p (local.get $s))
    (local.set $h64 (i64.extend_i32_u (local.get $n)))
    (block $tail
      (loop $words
        (br_if $tail (i32.gt_u (i32.add (local.get $p) (i32.const 8)) (local.get $e)))
        (local.set $h64 (i64.mul (i64.xor (local.get $h64) (i64.load (local.get $p))) (i64.const 0x9e3779b97f4a7c15)))
        (local.set $h64 (i64.xor (local.get $h64) (i64.shr_u (local.get $h64) (i64.const 29))))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (br $words)))
    (if (i32.lt_u (local.get $p) (local.get $e))
      (then
        (local.set $h64
          (i64.mul
            (i64.xor (local.get $h64)
                     (i64.and (i64.load (local.get $p))
                              (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (i32.sub (local.get $e) (local.get $p)) (i32.const 3))))
                                       (i64.const 1))))
            (i64.const 0x9e3779b97f4a7c15)))))
    (local.set $h (i32.wrap_i64 (i64.xor (local.get $h64) (i64.shr_u (local.get $h64) (i64.const 32)))))
    (local.set $head
      (if (result i64) (i32.ge_u (local.get $n) (i32.const 8))
        (then (i64.load (local.get $s)))
        (else (i64.and (i64.load (local.get $s))
                       (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $n) (i32.const 3)))) (i64.const 1))))))
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (global.get $bits)) (i32.const 1)))
    (local.set $slot (i32.shr_u (i32.mul (local.get $h) (i32.const 0x9e3779b1)) (i32.sub (i32.const 32) (global.get $bits))))
    (block $found
      (loop $probe
        (local.set $at (i32.add (global.get $slotsP) (i32.shl (local.get $slot) (i32.const 5))))
        (local.set $len (i32.load offset=12 (local.get $at)))
        (if (i32.eqz (local.get $len))
          (then
            (global.set $runCount (i32.add (global.get $runCount) (i32.const 1)))
            (i64.store (local.get $at) (local.get $head))
            (i32.store offset=8 (local.get $at) (local.get $h))
            (i32.store offset=12 (local.get $at) (local.get $n))
            (i32.store offset=20 (local.get $at) (i32.const -2))
            (i32.store offset=24 (local.get $at) (i32.const -2))
            (i32.store offset=28 (local.get $at) (i32.const -2))
            (if (i32.gt_u (local.get $n) (i32.const 8))
              (then
                (i32.store offset=16 (local.get $at) (global.get $keysUsed))
                (memory.copy (global.get $keysUsed) (i32.add (local.get $s) (i32.const 8)) (i32.sub (local.get $n) (i32.const 8)))
                (global.set $keysUsed (i32.add (global.get $keysUsed) (i32.sub (local.get $n) (i32.const 8))))))
            (br $found)))
        (if (i32.and (i32.eq (local.get $len) (local.get $n)) (i64.eq (i64.load (local.get $at)) (local.get $head)))
          (then
            (br_if $found (i32.le_u (local.get $n) (i32.const 8)))
            (if (i32.eq (i32.load offset=8 (local.get $at)) (local.get $h))
              (then
                (br_if $found (call $same (i32.load offset=16 (local.get $at)) (i32.add (local.get $s) (i32.const 8))
                                          (i32.sub (local.get $n) (i32.const 8))))))))
        (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
        (br $probe)))
    ;; -2: not resolved yet for this setting
    (local.set $at (i32.add (i32.add (local.get $at) (i32.const 20)) (i32.shl (local.get $setting) (i32.const 2))))
    (local.set $id (i32.load (local.get $at)))
    (if (i32.eq (local.get $id) (i32.const -2))
      (then
        (local.set $id (call $resolve (i32.sub (local.get $s) (global.get $textP))
                                      (i32.sub (local.get $e) (global.get $textP))))
        (i32.store (local.get $at) (local.get $id))))
    (if (result i32) (i32.lt_s (local.get $id) (i32.const 0))
      (then (local.get $k))
      (else
        (i32.store (i32.add (global.get $outP) (i32.shl (local.get $k) (i32.const 2))) (local.get $id))
        (i32.add (local.get $k) (i32.const 1)))))

  (func (export "tokens") (param $len i32) (param $setting i32) (result i32)
    (local $p i32) (local $end i32) (local $low v128) (local $bits i32) (local $z i32) (local $s i32) (local $k i32)
    ;; a text of len bytes has at most (len + 1) / 2 runs and len bytes of them
    (if (i32.gt_u (i32.add (global.get $runCount) (i32.shr_u (i32.add (local.get $len) (i32.const 1)) (i32.const 1)))
                  (global.get $maxRuns))
      (then (return (i32.const -1))))
    (if (i32.gt_u (i32.add (global.get $keysUsed) (local.get $len)) (global.get $keysEnd))
      (then (return (i32.const -2))))
    (local.set $p (global.get $textP))
    (local.set $end (i32.add (local.get $p) (local.get $len)))
    ;; the start of the run being read, or -1
    (local.set $s (i32.const -1))
    ;; 16 bytes at a time: lower-case them in place, and take the bit mask of the [a-z0-9] bytes
    (block $done
      (loop $chunk
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $low (v128.load (local.get $p)))
        (local.set $low
          (v128.or (local.get $low)
                   (v128.and (i8x16.lt_u (i8x16.sub (local.get $low) (i8x16.splat (i32.const 65))) (i8x16.splat (i32.const 26)))
                             (i8x16.splat (i32.const 32)))))
        (v128.store (local.get $p) (local.get $low))
        (local.set $bits
          (if (result i32) (global.get $mode)
            ;; Python's ASCII whitespace: \t \n \v \f \r, U+001C-U+001F and space
            (then
              (i32.xor
                (i8x16.bitmask
                  (v128.or (v128.or (i8x16.lt_u (i8x16.sub (local.get $low) (i8x16.splat (i32.const 9))) (i8x16.splat (i32.const 5)))
                                    (i8x16.lt_u (i8x16.sub (local.get $low) (i8x16.splat (i32.const 28))) (i8x16.splat (i32.const 4))))
                           (i8x16.eq (local.get $low) (i8x16.splat (i32.const 32)))))
                (i32.const 0xffff)))
            (else
              (i8x16.bitmask
                (v128.or (i8x16.lt_u (i8x16.sub (local.get $low) (i8x16.splat (i32.const 97))) (i8x16.splat (i32.const 26)))
                         (i8x16.lt_u (i8x16.sub (local.get $low) (i8x16.splat (i32.const 48))) (i8x16.splat (i32.const 10))))))))
        ;; the bytes past the end separate
        (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 16))
          (then (local.set $bits (i32.and (local.get $bits)
                                          (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1))))))
        (block $next
          (loop $runs
            (if (i32.lt_s (local.get $s) (i32.const 0))
              (then
                (br_if $next (i32.eqz (local.get $bits)))
                (local.set $s (i32.add (local.get $p) (i32.ctz (local.get $bits))))))
            ;; the run's end: the first separator at or after its start in this chunk, else it goes on
            (local.set $z (i32.and (i32.xor (local.get $bits) (i32.const 0xffff))
                                   (i32.shl (i32.const -1)
                                            (select (i32.sub (local.get $s) (local.get $p)) (i32.const 0)
                                                    (i32.gt_s (local.get $s) (local.get $p))))))
            (br_if $next (i32.eqz (local.get $z)))
            (local.set $z (i32.add (local.get $p) (i32.ctz (local.get $z))))
            (local.set $k (call $emit (local.get $s) (local.get $z) (local.get $setting) (local.get $k)))
            (local.set $s (i32.const -1))
            (local.set $bits (i32.and (local.get $bits) (i32.shl (i32.const -1) (i32.sub (local.get $z) (local.get $p)))))
            (br $runs)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $chunk)))
    ;; a run that reaches the end
    (if (i32.ge_s (local.get $s) (i32.const 0))
      (then (local.set $k (call $emit (local.get $s) (local.get $end) (local.get $setting) (local.get $k)))))
    (local.get $k)))
