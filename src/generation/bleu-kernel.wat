;; BLEU's per-segment statistics as WebAssembly: the 13a tokenizer's scan, token interning and clipped n-gram
;; counting for one segment (its references and its candidate). bleu-kernel.ts drives it; bleu.ts keeps the JS
;; path (tokenizers/tokenizer-13a.ts spans13a, ngrams.ts) for everything else. Assembled by scripts/build-wasm.mjs
;; into bleu-kernel-wasm.ts; test/src/generation/bleu-kernel.test.ts checks that the two paths agree.
;;
;; Why WebAssembly: a test file meets BLEU cold, and JS runs its first thousands of segments in V8's baseline
;; tiers; this code needs no warm-up.
;;
;; stats(T, maxOrder) reads T texts as UTF-8 (text t is the bytes at addresses [bounds[2t], bounds[2t+1]), already
;; lowered, rstripped and through 13a's string rewriting): texts 0 … T-2 are the references, text T-1 the candidate. It
;; writes out[t] = the number of 13a tokens of text t, then per order n = 1 … maxOrder the clipped matches
;; out[T + 2(n-1)] and the candidate's n-gram count out[T + 2(n-1) + 1], stopping (and leaving the rest as it
;; was) at the first order with no candidate n-gram, and returns the number of orders written. The table region
;; must hold a power of two slots, at least twice the bytes (tokens never outnumber bytes).
(module
  (memory (export "memory") 1)
  ;; layout, set by setup() (again whenever bleu-kernel.ts grows the memory)
  (global $classP (mut i32) (i32.const 0)) ;; u8 per ASCII unit: tokenizer-13a.ts's ASCII_CLASS
  (global $boundsP (mut i32) (i32.const 0)) ;; i32 start, end address per text
  (global $tokStartP (mut i32) (i32.const 0)) ;; per token: first byte, end byte (addresses), id
  (global $tokEndP (mut i32) (i32.const 0))
  (global $idsP (mut i32) (i32.const 0))
  (global $keysP (mut i32) (i32.const 0)) ;; per token: the id of the n-gram it starts, at the current order
  (global $textTokP (mut i32) (i32.const 0)) ;; i32 per text + 1: its first token
  (global $tableP (mut i32) (i32.const 0)) ;; 16 bytes per slot: stamp, hash or n-1 gram, token or id, id
  (global $countsP (mut i32) (i32.const 0)) ;; i32 per n-gram id seen in the references
  (global $onesP (mut i32) (i32.const 0))
  (global $outP (mut i32) (i32.const 0))
  ;; the table's entries of earlier uses are told apart by their stamp: nothing is cleared between uses
  (global $stamp (mut i32) (i32.const 0))
  (global $nTok (mut i32) (i32.const 0))

  ;; 13a's classes (tokenizer-13a.ts)
  ;; DIGIT 1, PERIOD_COMMA 2, SYMBOL 4, WHITESPACE 8, HYPHEN 16; other units 0

  (func (export "setup") (param $class i32) (param $bounds i32) (param $tokStart i32)
        (param $tokEnd i32) (param $ids i32) (param $keys i32) (param $textTok i32)
        (param $table i32) (param $counts i32) (param $ones i32) (param $out i32)
    (global.set $classP (local.get $class))
    (global.set $boundsP (local.get $bounds))
    (global.set $tokStartP (local.get $tokStart))
    (global.set $tokEndP (local.get $tokEnd))
    (global.set $idsP (local.get $ids))
    (global.set $keysP (local.get $keys))
    (global.set $textTokP (local.get $textTok))
    (global.set $tableP (local.get $table))
    (global.set $countsP (local.get $counts))
    (global.set $onesP (local.get $ones))
    (global.set $outP (local.get $out)))

  ;; Forgets every table entry (bleu-kernel.ts calls it long before the stamp could wrap around).
  (func (export "restamp") (param $slots i32)
    (memory.fill (global.get $tableP) (i32.const 0) (i32.shl (local.get $slots) (i32.const 4)))
    (global.set $stamp (i32.const 0)))

  ;; One non-ASCII code point at p (well-formed UTF-8): its 13a class (Python's non-ASCII whitespace, spans.ts
  ;; isPyWhitespaceUnit: U+0085, U+00A0, U+1680, U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000, is 8;
  ;; everything else 0) | its length in bytes << 8.
  (func $codePoint (param $p i32) (result i32)
    (local $lead i32) (local $b1 i32) (local $b2 i32) (local $len i32) (local $space i32)
    (local.set $lead (i32.load8_u (local.get $p)))
    (local.set $b1 (i32.load8_u offset=1 (local.get $p)))
    (local.set $len (select (i32.const 2) (select (i32.const 3) (i32.const 4) (i32.lt_u (local.get $lead) (i32.const 0xf0)))
                            (i32.lt_u (local.get $lead) (i32.const 0xe0))))
    (if (i32.eq (local.get $len) (i32.const 2))
      (then
        (local.set $space (i32.and (i32.eq (local.get $lead) (i32.const 0xc2))
                                   (i32.or (i32.eq (local.get $b1) (i32.const 0x85)) (i32.eq (local.get $b1) (i32.const 0xa0)))))))
    (if (i32.eq (local.get $len) (i32.const 3))
      (then
        (local.set $b2 (i32.load8_u offset=2 (local.get $p)))
        (local.set $space
          (i32.or
            (i32.or
              ;; U+1680
              (i32.and (i32.eq (local.get $lead) (i32.const 0xe1))
                       (i32.and (i32.eq (local.get $b1) (i32.const 0x9a)) (i32.eq (local.get $b2) (i32.const 0x80))))
              ;; U+3000
              (i32.and (i32.eq (local.get $lead) (i32.const 0xe3))
                       (i32.and (i32.eq (local.get $b1) (i32.const 0x80)) (i32.eq (local.get $b2) (i32.const 0x80)))))
            (i32.and (i32.eq (local.get $lead) (i32.const 0xe2))
              (i32.or
                ;; U+2000-200A, U+2028, U+2029, U+202F
                (i32.and (i32.eq (local.get $b1) (i32.const 0x80))
                  (i32.or (i32.le_u (i32.sub (local.get $b2) (i32.const 0x80)) (i32.const 10))
                          (i32.or (i32.or (i32.eq (local.get $b2) (i32.const 0xa8)) (i32.eq (local.get $b2) (i32.const 0xa9)))
                                  (i32.eq (local.get $b2) (i32.const 0xaf)))))
                ;; U+205F
                (i32.and (i32.eq (local.get $b1) (i32.const 0x81)) (i32.eq (local.get $b2) (i32.const 0x9f)))))))))
    (i32.or (i32.shl (local.get $len) (i32.const 8)) (select (i32.const 8) (i32.const 0) (local.get $space))))

  (func $push (param $start i32) (param $end i32)
    (local $o i32)
    (local.set $o (i32.shl (global.get $nTok) (i32.const 2)))
    (i32.store (i32.add (global.get $tokStartP) (local.get $o)) (local.get $start))
    (i32.store (i32.add (global.get $tokEndP) (local.get $o)) (local.get $end))
    (global.set $nTok (i32.add (global.get $nTok) (i32.const 1))))

  ;; The first byte from q on (at most e) that is not an ASCII letter, 16 bytes at a time (16 readable bytes
  ;; follow every text).
  (func $pastLetters (param $q i32) (param $e i32) (result i32)
    (local $v v128) (local $others i32)
    (block $found
      (loop $chunk
        (br_if $found (i32.ge_u (local.get $q) (local.get $e)))
        (local.set $v (i8x16.sub (v128.or (v128.load (local.get $q)) (i8x16.splat (i32.const 0x20))) (i8x16.splat (i32.const 0x61))))
        (local.set $others (i32.xor (i8x16.bitmask (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 26)))) (i32.const 0xffff)))
        (if (local.get $others)
          (then
            (local.set $q (i32.add (local.get $q) (i32.ctz (local.get $others))))
            (br $found)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $chunk)))
    (select (local.get $e) (local.get $q) (i32.gt_u (local.get $q) (local.get $e))))

  ;; spans13a's loop (tokenizer-13a.ts) over the UTF-8 bytes [s, e), a code point per step: the breaks of the four
  ;; regex rules from the classes of the code points around each one. The rules only see ASCII classes: every
  ;; other code point is class 0 or whitespace, and a run of class-0 units acts as one class-0 unit (and a run of
  ;; whitespace as one), so a code point here takes the place of its one or two UTF-16 units there. Like spans13a,
  ;; it takes a plain token after whitespace whole, and passes over a run of class-0 code points inside a token
  ;; without the full step (no rule can break there and no rule state is set): ASCII letters 16 at a time, other
  ;; class-0 code points one by one.
  (func $scan (param $s i32) (param $e i32)
    (local $i i32) (local $open i32) (local $b2 i32) (local $b i32)
    (local $cur i32) (local $len i32) (local $m2p i32) (local $m2c i32) (local $m3p i32) (local $ni i32)
    (local $nc i32) (local $nx i32) (local $nlen i32) (local $m2n i32) (local $m3 i32) (local $classP i32) (local $v i32)
    (if (i32.ge_u (local.get $s) (local.get $e)) (then (return)))
    (local.set $classP (global.get $classP))
    (local.set $open (i32.const -1))
    (local.set $i (local.get $s))
    (local.set $nc (i32.load8_u (local.get $i)))
    (if (i32.lt_u (local.get $nc) (i32.const 128))
      (then (local.set $cur (i32.load8_u (i32.add (local.get $classP) (local.get $nc)))) (local.set $len (i32.const 1)))
      (else
        (local.set $v (call $codePoint (local.get $i)))
        (local.set $cur (i32.and (local.get $v) (i32.const 255)))
        (local.set $len (i32.shr_u (local.get $v) (i32.const 8)))))
    ;; at the first code point the padding space (a non-digit) precedes it
    (local.set $m2c (i32.eq (local.get $cur) (i32.const 2)))
    (loop $step
      (if (i32.and (i32.lt_s (local.get $open) (i32.const 0)) (i32.eqz (local.get $cur)))
        (then
          ;; A token that starts with a class-0 code point and holds only class-0 ones up to whitespace or the end
          ;; breaks nowhere (every rule needs a symbol, P, digit or hyphen): take it whole, and the whitespace after
          ;; it, going on with the state the single steps would have left (as spans13a does).
          (local.set $ni (call $pastLetters (i32.add (local.get $i) (local.get $len)) (local.get $e)))
          (block $stop
            (loop $more
              (br_if $stop (i32.ge_u (local.get $ni) (local.get $e)))
              (local.set $nc (i32.load8_u (local.get $ni)))
              (if (i32.lt_u (local.get $nc) (i32.const 128))
                (then (local.set $nx (i32.load8_u (i32.add (local.get $classP) (local.get $nc)))) (local.set $nlen (i32.const 1)))
                (else
                  (local.set $v (call $codePoint (local.get $ni)))
                  (local.set $nx (i32.and (local.get $v) (i32.const 255)))
                  (local.set $nlen (i32.shr_u (local.get $v) (i32.const 8)))))
              (br_if $stop (local.get $nx))
              (local.set $ni (call $pastLetters (i32.add (local.get $ni) (local.get $nlen)) (local.get $e)))
              (br $more)))
          (if (i32.ge_u (local.get $ni) (local.get $e))
            (then
              (call $push (local.get $i) (local.get $e))
              (return)))
          (if (i32.eq (local.get $nx) (i32.const 8))
            (then
              (call $push (local.get $i) (local.get $ni))
              (local.set $i (i32.add (local.get $ni) (local.get $nlen)))
              (if (i32.ge_u (local.get $i) (local.get $e)) (then (return)))
              (local.set $nc (i32.load8_u (local.get $i)))
              (if (i32.lt_u (local.get $nc) (i32.const 128))
                (then (local.set $cur (i32.load8_u (i32.add (local.get $classP) (local.get $nc)))) (local.set $len (i32.const 1)))
                (else
                  (local.set $v (call $codePoint (local.get $i)))
                  (local.set $cur (i32.and (local.get $v) (i32.const 255)))
                  (local.set $len (i32.shr_u (local.get $v) (i32.const 8)))))
              ;; after a plain code point and a whitespace one, no rule state is set
              (local.set $b2 (i32.const 0))
              (local.set $b (i32.const 8))
              (local.set $m2p (i32.const 0))
              (local.set $m2c (i32.eq (local.get $cur) (i32.const 2)))
              (local.set $m3p (i32.const 0))
              (br $step)))))
      (if (i32.and (i32.eqz (i32.or (local.get $cur) (local.get $b))) (i32.ge_s (local.get $open) (i32.const 0)))
        (then
          ;; inside a token, a class-0 code point after a class-0 one: on to the last one of the run
          (block $runEnd
            (loop $run
              (local.set $ni (i32.add (local.get $i) (local.get $len)))
              (local.set $ni (call $pastLetters (local.get $ni) (local.get $e)))
              (if (i32.gt_u (local.get $ni) (i32.add (local.get $i) (local.get $len)))
                (then
                  ;; the byte before ni is a letter: it is the run's code point so far
                  (local.set $i (i32.sub (local.get $ni) (i32.const 1)))
                  (local.set $len (i32.const 1))
                  (local.set $b2 (i32.const 0))))
              (br_if $runEnd (i32.ge_u (local.get $ni) (local.get $e)))
              (local.set $nc (i32.load8_u (local.get $ni)))
              (if (i32.lt_u (local.get $nc) (i32.const 128))
                (then (local.set $nx (i32.load8_u (i32.add (local.get $classP) (local.get $nc)))) (local.set $nlen (i32.const 1)))
                (else
                  (local.set $v (call $codePoint (local.get $ni)))
                  (local.set $nx (i32.and (local.get $v) (i32.const 255)))
                  (local.set $nlen (i32.shr_u (local.get $v) (i32.const 8)))))
              (br_if $runEnd (local.get $nx))
              (local.set $i (local.get $ni))
              (local.set $len (local.get $nlen))
              (local.set $b2 (i32.const 0))
              (br $run)))))
      ;; past the end comes the padding space: class 0
      (local.set $ni (i32.add (local.get $i) (local.get $len)))
      (if (i32.lt_u (local.get $ni) (local.get $e))
        (then
          (local.set $nc (i32.load8_u (local.get $ni)))
          (if (i32.lt_u (local.get $nc) (i32.const 128))
            (then (local.set $nx (i32.load8_u (i32.add (local.get $classP) (local.get $nc)))) (local.set $nlen (i32.const 1)))
            (else
              (local.set $v (call $codePoint (local.get $ni)))
              (local.set $nx (i32.and (local.get $v) (i32.const 255)))
              (local.set $nlen (i32.shr_u (local.get $v) (i32.const 8))))))
        (else (local.set $nx (i32.const 0)) (local.set $nlen (i32.const 0))))
      (local.set $m2n
        (i32.and (i32.and (i32.eq (local.get $nx) (i32.const 2)) (i32.ne (local.get $cur) (i32.const 1)))
                 (i32.eqz (i32.and (i32.eq (local.get $cur) (i32.const 2)) (local.get $m2c)))))
      (local.set $m3
        (i32.and
          (i32.and (i32.eq (local.get $cur) (i32.const 2))
                   (i32.or (local.get $m2c) (i32.ne (local.get $nx) (i32.const 1))))
          (i32.eqz
            (i32.and (i32.and (i32.eq (local.get $b) (i32.const 2)) (i32.eqz (local.get $m2c)))
                     (i32.and (i32.eqz (local.get $m2p)) (local.get $m3p))))))
      (if (i32.eq (local.get $cur) (i32.const 8))
        (then
          (if (i32.ge_s (local.get $open) (i32.const 0))
            (then
              (call $push (local.get $open) (local.get $i))
              (local.set $open (i32.const -1)))))
        (else
          (if (i32.or
                (i32.lt_s (local.get $open) (i32.const 0))
                (i32.or
                  (i32.or
                    (i32.or (i32.ne (i32.and (i32.or (local.get $cur) (local.get $b)) (i32.const 4)) (i32.const 0))
                            (i32.or (local.get $m2c) (local.get $m2p)))
                    (i32.or (local.get $m3) (local.get $m3p)))
                  (i32.or
                    (i32.and (i32.eq (local.get $cur) (i32.const 16)) (i32.eq (local.get $b) (i32.const 1)))
                    (i32.and (i32.eq (local.get $b) (i32.const 16)) (i32.eq (local.get $b2) (i32.const 1))))))
            (then
              ;; a token starts here (after whitespace, or at a break)
              (if (i32.ge_s (local.get $open) (i32.const 0))
                (then (call $push (local.get $open) (local.get $i))))
              (local.set $open (local.get $i))))))
      (local.set $b2 (local.get $b))
      (local.set $b (local.get $cur))
      (local.set $cur (local.get $nx))
      (local.set $len (local.get $nlen))
      (local.set $m2p (local.get $m2c))
      (local.set $m2c (local.get $m2n))
      (local.set $m3p (local.get $m3))
      (local.set $i (local.get $ni))
      (br_if $step (i32.lt_u (local.get $i) (local.get $e))))
    (if (i32.ge_s (local.get $open) (i32.const 0))
      (then (call $push (local.get $open) (local.get $e)))))

  ;; Whether tokens a and b have the same bytes.
  (func $sameToken (param $a i32) (param $b i32) (result i32)
    (local $pa i32) (local $pb i32) (local $len i32) (local $end i32)
    (local.set $pa (i32.load (i32.add (global.get $tokStartP) (i32.shl (local.get $a) (i32.const 2)))))
    (local.set $pb (i32.load (i32.add (global.get $tokStartP) (i32.shl (local.get $b) (i32.const 2)))))
    (local.set $len (i32.sub (i32.load (i32.add (global.get $tokEndP) (i32.shl (local.get $a) (i32.const 2)))) (local.get $pa)))
    (if (i32.ne (local.get $len)
                (i32.sub (i32.load (i32.add (global.get $tokEndP) (i32.shl (local.get $b) (i32.const 2)))) (local.get $pb)))
      (then (return (i32.const 0))))
    (local.set $end (i32.add (local.get $pa) (local.get $len)))
    ;; 8 bytes at a time, then the rest
    (block $tail
      (loop $words
        (br_if $tail (i32.gt_u (i32.add (local.get $pa) (i32.const 8)) (local.get $end)))
        (if (i64.ne (i64.load (local.get $pa)) (i64.load (local.get $pb))) (then (return (i32.const 0))))
        (local.set $pa (i32.add (local.get $pa) (i32.const 8)))
        (local.set $pb (i32.add (local.get $pb) (i32.const 8)))
        (br $words)))
    (block $same
      (loop $bytes
        (br_if $same (i32.ge_u (local.get $pa) (local.get $end)))
        (if (i32.ne (i32.load8_u (local.get $pa)) (i32.load8_u (local.get $pb))) (then (return (i32.const 0))))
        (local.set $pa (i32.add (local.get $pa) (i32.const 1)))
        (local.set $pb (i32.add (local.get $pb) (i32.const 1)))
        (br $bytes)))
    (i32.const 1))

  ;; Numbers every token (ids from 0 in order of first appearance, references first) into ids and keys; returns
  ;; the number of distinct tokens of the references.
  (func $intern (param $refTokens i32) (param $bits i32) (result i32)
    (local $k i32) (local $h i32) (local $slot i32) (local $e i32) (local $mask i32) (local $next i32)
    (local $inRefs i32) (local $id i32) (local $stamp i32) (local $start i32) (local $end i32) (local $p i32) (local $h64 i64)
    (global.set $stamp (i32.add (global.get $stamp) (i32.const 1)))
    (local.set $stamp (global.get $stamp))
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $bits)) (i32.const 1)))
    (local.set $inRefs (i32.const -1))
    (block $done
      (loop $token
        (if (i32.eq (local.get $k) (local.get $refTokens)) (then (local.set $inRefs (local.get $next))))
        (br_if $done (i32.ge_u (local.get $k) (global.get $nTok)))
        (local.set $start (i32.load (i32.add (global.get $tokStartP) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $end (i32.load (i32.add (global.get $tokEndP) (i32.shl (local.get $k) (i32.const 2)))))
        ;; a hash of the token's bytes, 8 at a time (the bytes after a token are readable; they are masked off),
        ;; written out here: at one per token, a call cost more than its work
        (local.set $p (local.get $start))
        (local.set $h64 (i64.extend_i32_u (i32.sub (local.get $end) (local.get $start))))
        (block $tail
          (loop $words
            (br_if $tail (i32.gt_u (i32.add (local.get $p) (i32.const 8)) (local.get $end)))
            (local.set $h64 (i64.mul (i64.xor (local.get $h64) (i64.load (local.get $p))) (i64.const 0x9e3779b97f4a7c15)))
            (local.set $h64 (i64.xor (local.get $h64) (i64.shr_u (local.get $h64) (i64.const 29))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (br $words)))
        (if (i32.lt_u (local.get $p) (local.get $end))
          (then
            (local.set $h64
              (i64.mul
                (i64.xor (local.get $h64)
                         (i64.and (i64.load (local.get $p))
                                  (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (i32.sub (local.get $end) (local.get $p)) (i32.const 3))))
                                           (i64.const 1))))
                (i64.const 0x9e3779b97f4a7c15)))))
        (local.set $h (i32.wrap_i64 (i64.xor (local.get $h64) (i64.shr_u (local.get $h64) (i64.const 32)))))
        (local.set $slot (i32.shr_u (i32.mul (local.get $h) (i32.const 0x9e3779b1)) (i32.sub (i32.const 32) (local.get $bits))))
        (block $found
          (loop $probe
            (local.set $e (i32.add (global.get $tableP) (i32.shl (local.get $slot) (i32.const 4))))
            (if (i32.ne (i32.load (local.get $e)) (local.get $stamp))
              (then
                (i32.store (local.get $e) (local.get $stamp))
                (i32.store offset=4 (local.get $e) (local.get $h))
                (i32.store offset=8 (local.get $e) (local.get $k))
                (i32.store offset=12 (local.get $e) (local.get $next))
                (local.set $id (local.get $next))
                (local.set $next (i32.add (local.get $next) (i32.const 1)))
                (br $found)))
            (if (i32.eq (i32.load offset=4 (local.get $e)) (local.get $h))
              (then
                (if (call $sameToken (i32.load offset=8 (local.get $e)) (local.get $k))
                  (then (local.set $id (i32.load offset=12 (local.get $e))) (br $found)))))
            (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (i32.store (i32.add (global.get $idsP) (i32.shl (local.get $k) (i32.const 2))) (local.get $id))
        (i32.store (i32.add (global.get $keysP) (i32.shl (local.get $k) (i32.const 2))) (local.get $id))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $token)))
    (local.get $inRefs))

  ;; From order n-1 to n: the n-gram at position i is the pair (its n-1 gram's key, the id of token i+n-1),
  ;; numbered again from 0 in order of first appearance, references first. Returns the number of distinct n-grams
  ;; of the references.
  (func $advance (param $T i32) (param $n i32) (param $bits i32) (result i32)
    (local $t i32) (local $i i32) (local $to i32) (local $a i32) (local $b i32) (local $slot i32) (local $e i32)
    (local $mask i32) (local $next i32) (local $inRefs i32) (local $key i32) (local $stamp i32) (local $p i32)
    (global.set $stamp (i32.add (global.get $stamp) (i32.const 1)))
    (local.set $stamp (global.get $stamp))
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $bits)) (i32.const 1)))
    (block $texts
      (loop $text
        (br_if $texts (i32.ge_u (local.get $t) (local.get $T)))
        (if (i32.eq (local.get $t) (i32.sub (local.get $T) (i32.const 1))) (then (local.set $inRefs (local.get $next))))
        (local.set $i (i32.load (i32.add (global.get $textTokP) (i32.shl (local.get $t) (i32.const 2)))))
        (local.set $to (i32.sub (i32.load (i32.add (global.get $textTokP) (i32.shl (i32.add (local.get $t) (i32.const 1)) (i32.const 2))))
                                (i32.sub (local.get $n) (i32.const 1))))
        (block $positions
          (loop $position
            (br_if $positions (i32.ge_s (local.get $i) (local.get $to)))
            (local.set $p (i32.add (global.get $keysP) (i32.shl (local.get $i) (i32.const 2))))
            (local.set $a (i32.load (local.get $p)))
            (local.set $b (i32.load (i32.add (global.get $idsP)
                                             (i32.shl (i32.add (local.get $i) (i32.sub (local.get $n) (i32.const 1))) (i32.const 2)))))
            (local.set $slot
              (i32.shr_u (i32.mul (i32.add (i32.mul (local.get $a) (i32.const 0x9e3779b1)) (local.get $b)) (i32.const 0x85ebca77))
                         (i32.sub (i32.const 32) (local.get $bits))))
            (block $found
              (loop $probe
                (local.set $e (i32.add (global.get $tableP) (i32.shl (local.get $slot) (i32.const 4))))
                (if (i32.ne (i32.load (local.get $e)) (local.get $stamp))
                  (then
                    (i32.store (local.get $e) (local.get $stamp))
                    (i32.store offset=4 (local.get $e) (local.get $a))
                    (i32.store offset=8 (local.get $e) (local.get $b))
                    (i32.store offset=12 (local.get $e) (local.get $next))
                    (local.set $key (local.get $next))
                    (local.set $next (i32.add (local.get $next) (i32.const 1)))
                    (br $found)))
                (if (i32.and (i32.eq (i32.load offset=4 (local.get $e)) (local.get $a))
                             (i32.eq (i32.load offset=8 (local.get $e)) (local.get $b)))
                  (then (local.set $key (i32.load offset=12 (local.get $e))) (br $found)))
                (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                (br $probe)))
            (i32.store (local.get $p) (local.get $key))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $position)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $text)))
    (local.get $inRefs))

  ;; Adds 1 at counts[keys[i]] (add 1) or sets it to 0 (add 0) for the n-grams of text t at order n.
  (func $tally (param $counts i32) (param $t i32) (param $n i32) (param $add i32)
    (local $i i32) (local $to i32) (local $c i32)
    (local.set $i (i32.load (i32.add (global.get $textTokP) (i32.shl (local.get $t) (i32.const 2)))))
    (local.set $to (i32.sub (i32.load (i32.add (global.get $textTokP) (i32.shl (i32.add (local.get $t) (i32.const 1)) (i32.const 2))))
                            (i32.sub (local.get $n) (i32.const 1))))
    (block $end
      (loop $position
        (br_if $end (i32.ge_s (local.get $i) (local.get $to)))
        (local.set $c (i32.add (local.get $counts)
                               (i32.shl (i32.load (i32.add (global.get $keysP) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2))))
        (i32.store (local.get $c) (i32.mul (local.get $add) (i32.add (i32.load (local.get $c)) (i32.const 1))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $position))))

  ;; max[k] = max(max[k], ones[k]) for the n-grams of text t at order n.
  (func $raise (param $t i32) (param $n i32)
    (local $i i32) (local $to i32) (local $k i32) (local $m i32) (local $o i32)
    (local.set $i (i32.load (i32.add (global.get $textTokP) (i32.shl (local.get $t) (i32.const 2)))))
    (local.set $to (i32.sub (i32.load (i32.add (global.get $textTokP) (i32.shl (i32.add (local.get $t) (i32.const 1)) (i32.const 2))))
                            (i32.sub (local.get $n) (i32.const 1))))
    (block $end
      (loop $position
        (br_if $end (i32.ge_s (local.get $i) (local.get $to)))
        (local.set $k (i32.shl (i32.load (i32.add (global.get $keysP) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2)))
        (local.set $m (i32.add (global.get $countsP) (local.get $k)))
        (local.set $o (i32.load (i32.add (global.get $onesP) (local.get $k))))
        (if (i32.gt_s (local.get $o) (i32.load (local.get $m))) (then (i32.store (local.get $m) (local.get $o))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $position))))

  (func (export "stats") (param $T i32) (param $maxOrder i32) (result i32)
    (local $bits i32) (local $t i32) (local $n i32) (local $inRefs i32) (local $hyp i32) (local $i i32) (local $to i32)
    (local $len i32) (local $correct i32) (local $k i32) (local $c i32) (local $o i32)
    ;; tokens
    (global.set $nTok (i32.const 0))
    (block $scanned
      (loop $text
        (i32.store (i32.add (global.get $textTokP) (i32.shl (local.get $t) (i32.const 2))) (global.get $nTok))
        (br_if $scanned (i32.ge_u (local.get $t) (local.get $T)))
        (call $scan (i32.load (i32.add (global.get $boundsP) (i32.shl (local.get $t) (i32.const 3))))
                    (i32.load offset=4 (i32.add (global.get $boundsP) (i32.shl (local.get $t) (i32.const 3)))))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $text)))
    (local.set $t (i32.const 0))
    (loop $count
      (i32.store (i32.add (global.get $outP) (i32.shl (local.get $t) (i32.const 2)))
                 (i32.sub (i32.load (i32.add (global.get $textTokP) (i32.shl (i32.add (local.get $t) (i32.const 1)) (i32.const 2))))
                          (i32.load (i32.add (global.get $textTokP) (i32.shl (local.get $t) (i32.const 2))))))
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br_if $count (i32.lt_u (local.get $t) (local.get $T))))
    (local.set $hyp (i32.sub (local.get $T) (i32.const 1)))
    ;; the tables: at least twice as many slots as tokens
    (local.set $bits (i32.const 4))
    (loop $wider
      (if (i32.lt_u (i32.shl (i32.const 1) (local.get $bits)) (i32.shl (global.get $nTok) (i32.const 1)))
        (then (local.set $bits (i32.add (local.get $bits) (i32.const 1))) (br $wider))))
    (local.set $inRefs
      (call $intern (i32.load (i32.add (global.get $textTokP) (i32.shl (local.get $hyp) (i32.const 2)))) (local.get $bits)))
    (local.set $n (i32.const 1))
    (block $orders
      (loop $order
        (br_if $orders (i32.gt_u (local.get $n) (local.get $maxOrder)))
        (if (i32.gt_u (local.get $n) (i32.const 1))
          (then (local.set $inRefs (call $advance (local.get $T) (local.get $n) (local.get $bits)))))
        (local.set $i (i32.load (i32.add (global.get $textTokP) (i32.shl (local.get $hyp) (i32.const 2)))))
        (local.set $to (i32.sub (i32.load (i32.add (global.get $textTokP) (i32.shl (local.get $T) (i32.const 2))))
                                (i32.sub (local.get $n) (i32.const 1))))
        (local.set $len (i32.sub (local.get $to) (local.get $i)))
        ;; no candidate n-gram of this order, so none of the higher ones
        (br_if $orders (i32.le_s (local.get $len) (i32.const 0)))
        ;; counts[k]: the most times n-gram k occurs in any one reference
        (local.set $t (i32.const 0))
        (loop $zero
          (call $tally (global.get $countsP) (local.get $t) (local.get $n) (i32.const 0))
          (if (i32.gt_u (local.get $hyp) (i32.const 1))
            (then (call $tally (global.get $onesP) (local.get $t) (local.get $n) (i32.const 0))))
          (local.set $t (i32.add (local.get $t) (i32.const 1)))
          (br_if $zero (i32.lt_u (local.get $t) (local.get $hyp))))
        (if (i32.eq (local.get $hyp) (i32.const 1))
          (then (call $tally (global.get $countsP) (i32.const 0) (local.get $n) (i32.const 1)))
          (else
            (local.set $t (i32.const 0))
            (loop $ref
              (call $tally (global.get $onesP) (local.get $t) (local.get $n) (i32.const 1))
              (call $raise (local.get $t) (local.get $n))
              (call $tally (global.get $onesP) (local.get $t) (local.get $n) (i32.const 0))
              (local.set $t (i32.add (local.get $t) (i32.const 1)))
              (br_if $ref (i32.lt_u (local.get $t) (local.get $hyp))))))
        ;; clip the candidate's n-grams
        (local.set $correct (i32.const 0))
        (block $clipped
          (loop $position
            (br_if $clipped (i32.ge_s (local.get $i) (local.get $to)))
            (local.set $k (i32.load (i32.add (global.get $keysP) (i32.shl (local.get $i) (i32.const 2)))))
            (if (i32.lt_u (local.get $k) (local.get $inRefs))
              (then
                (local.set $c (i32.add (global.get $countsP) (i32.shl (local.get $k) (i32.const 2))))
                (if (i32.gt_s (i32.load (local.get $c)) (i32.const 0))
                  (then
                    (i32.store (local.get $c) (i32.sub (i32.load (local.get $c)) (i32.const 1)))
                    (local.set $correct (i32.add (local.get $correct) (i32.const 1)))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $position)))
        (local.set $o (i32.add (global.get $outP) (i32.shl (i32.add (local.get $T) (i32.shl (i32.sub (local.get $n) (i32.const 1)) (i32.const 1))) (i32.const 2))))
        (i32.store (local.get $o) (local.get $correct))
        (i32.store offset=4 (local.get $o) (local.get $len))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $order)))
    (i32.sub (local.get $n) (i32.const 1))))
