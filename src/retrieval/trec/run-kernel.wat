;; The run reader's fast path as WebAssembly (SIMD): run-kernel.ts drives it, RunBuilder (run.ts) keeps the
;; exact JS path for every line this kernel hands back. Assembled by scripts/build-wasm.mjs into
;; run-kernel-wasm.ts; test/src/retrieval/trec/run-kernel.test.ts checks that the two agree.
;;
;; Why WebAssembly: the JS line loop spent most of its time on mispredicted branches at field ends; here one
;; line's field boundaries come from four 16-byte compares and bit scans, and the code needs no JIT warm-up.
;;
;; parse(p, end, rowBase, apStart, apBias, qidLen) reads whole lines from memory[p, end) (every line ends with \n;
;; the 64 bytes after `end` are readable scratch). Per line it writes one row, from row rowBase on: scores[i]
;; (f64), starts[i] = apBias + offset of the docno in the arena, hashes[i] (FNV-1a of the docno), and the docno's
;; bytes to the arena, from offset apStart on. (A builder whose columns are this memory passes its row count and
;; arena length as rowBase and apStart; one that copies the rows out passes 0, 0 and its arena length.) It stops at
;; the first line it does not take, returning
;;   0  all lines read;
;;   1  the line at outP needs the exact path (a blank or `#` line, a tab or other control byte between fields,
;;      a score that is not a plain decimal with 1-15 digits, too few fields);
;;   2  the line at outP starts a qid other than the one in memory[qidP, qidP + qidLen).
;; outN rows and outAp arena bytes were written either way; runIdStart/runIdEnd are the last row's run_id
;; (-1 when no row was written).
;;
;; Field rules are the JS fast path's (run.ts): fields separated by spaces; the qid, iter, docno and rank are
;; runs of bytes > 32; the score is [-+]digits[.digits] followed by a space; the run_id ends at \n, \r or a
;; space (anything after it is skipped to the \n). A line of up to 63 bytes with single spaces takes the SIMD
;; path; other lines take the scalar path below it, which reads the same rules byte by byte.
(module
  (memory (export "memory") 1)
  ;; layout, set once by setup(): pow10 (f64 1e0..1e22) lives at 0
  (global $scoresP (mut i32) (i32.const 0))
  (global $startsP (mut i32) (i32.const 0))
  (global $hashesP (mut i32) (i32.const 0))
  (global $arenaP (mut i32) (i32.const 0))
  (global $qidP (mut i32) (i32.const 0))
  (global $outP (export "outP") (mut i32) (i32.const 0))
  (global $outN (export "outN") (mut i32) (i32.const 0))
  (global $outAp (export "outAp") (mut i32) (i32.const 0))
  (global $runIdStart (export "runIdStart") (mut i32) (i32.const -1))
  (global $runIdEnd (export "runIdEnd") (mut i32) (i32.const -1))

  (func (export "setup") (param $scores i32) (param $starts i32) (param $hashes i32) (param $arena i32) (param $qid i32)
    (global.set $scoresP (local.get $scores))
    (global.set $startsP (local.get $starts))
    (global.set $hashesP (local.get $hashes))
    (global.set $arenaP (local.get $arena))
    (global.set $qidP (local.get $qid)))

  (func (export "parse") (param $p i32) (param $end i32) (param $rowBase i32) (param $apStart i32) (param $apBias i32)
        (param $qidLen i32) (result i32)
    (local $n i32) (local $ap i32) (local $status i32)
    (local $lineStart i32) (local $docStart i32) (local $c i32) (local $k i32) (local $h i32)
    (local $neg i32) (local $m i64) (local $digits i32) (local $frac i32) (local $v f64)
    (local $rs i32) (local $re i32) (local $q i32) (local $qe i32)
    (local $nl i64) (local $sp i64) (local $lm i64) (local $L i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128) (local $space v128)
    (local $s1 i32) (local $s2 i32) (local $s3 i32) (local $s4 i32) (local $s5 i32) (local $s6 i32)
    (local $scoresP i32) (local $startsP i32) (local $hashesP i32) (local $arenaP i32) (local $qidP i32)
    (local.set $scoresP (global.get $scoresP))
    (local.set $startsP (global.get $startsP))
    (local.set $hashesP (global.get $hashesP))
    (local.set $arenaP (global.get $arenaP))
    (local.set $qidP (global.get $qidP))
    (local.set $n (local.get $rowBase))
    (local.set $ap (local.get $apStart))
    (local.set $rs (i32.const -1))
    (local.set $re (i32.const -1))
    (local.set $space (i8x16.splat (i32.const 32)))
    (block $stop
      (loop $line
        (br_if $stop (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $lineStart (local.get $p))
        (local.set $docStart (local.get $ap))
        (local.set $c (i32.load8_u (local.get $p)))
        (local.set $status (i32.const 1))
        (br_if $stop (i32.or (i32.le_u (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 35))))
        (block $row
        (block $scalar
          ;; ---- SIMD path: the line's 64 bytes from p, its control bytes and spaces as bit masks
          (local.set $v0 (v128.load (local.get $p)))
          (local.set $v1 (v128.load offset=16 (local.get $p)))
          (local.set $v2 (v128.load offset=32 (local.get $p)))
          (local.set $v3 (v128.load offset=48 (local.get $p)))
          (local.set $nl (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.lt_u (local.get $v0) (local.get $space))))
              (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.lt_u (local.get $v1) (local.get $space)))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.lt_u (local.get $v2) (local.get $space)))) (i64.const 32))
              (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.lt_u (local.get $v3) (local.get $space)))) (i64.const 48)))))
          ;; the first byte below 32 must be the line's \n: no tab, \r or other control byte before it
          (br_if $scalar (i64.eqz (local.get $nl)))
          (local.set $L (i32.wrap_i64 (i64.ctz (local.get $nl))))
          (br_if $scalar (i32.ne (i32.load8_u (i32.add (local.get $p) (local.get $L))) (i32.const 10)))
          (local.set $lm (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $L))) (i64.const 1)))
          (local.set $sp (i64.and (local.get $lm) (i64.or
            (i64.or (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v0) (local.get $space))))
              (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v1) (local.get $space)))) (i64.const 16)))
            (i64.or (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v2) (local.get $space)))) (i64.const 32))
              (i64.shl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v3) (local.get $space)))) (i64.const 48))))))
          ;; no two spaces adjacent, at least five of them
          (br_if $scalar (i64.ne (i64.and (local.get $sp) (i64.shr_u (local.get $sp) (i64.const 1))) (i64.const 0)))
          (br_if $scalar (i64.lt_u (i64.popcnt (local.get $sp)) (i64.const 5)))
          (local.set $s1 (i32.wrap_i64 (i64.ctz (local.get $sp))))
          (local.set $sp (i64.and (local.get $sp) (i64.sub (local.get $sp) (i64.const 1))))
          (local.set $s2 (i32.wrap_i64 (i64.ctz (local.get $sp))))
          (local.set $sp (i64.and (local.get $sp) (i64.sub (local.get $sp) (i64.const 1))))
          (local.set $s3 (i32.wrap_i64 (i64.ctz (local.get $sp))))
          (local.set $sp (i64.and (local.get $sp) (i64.sub (local.get $sp) (i64.const 1))))
          (local.set $s4 (i32.wrap_i64 (i64.ctz (local.get $sp))))
          (local.set $sp (i64.and (local.get $sp) (i64.sub (local.get $sp) (i64.const 1))))
          (local.set $s5 (i32.wrap_i64 (i64.ctz (local.get $sp))))
          (local.set $sp (i64.and (local.get $sp) (i64.sub (local.get $sp) (i64.const 1))))
          (local.set $s6 (if (result i32) (i64.eqz (local.get $sp))
            (then (local.get $L))
            (else (i32.wrap_i64 (i64.ctz (local.get $sp))))))
          ;; a run_id after the fifth space
          (br_if $scalar (i32.ge_u (i32.add (local.get $s5) (i32.const 1)) (local.get $L)))
          ;; the previous line's qid (compared 16 bytes at once; longer ones take the scalar path)
          (br_if $scalar (i32.ne (local.get $s1) (local.get $qidLen)))
          (br_if $scalar (i32.gt_u (local.get $s1) (i32.const 16)))
          (local.set $k (i32.sub (i32.shl (i32.const 1) (local.get $s1)) (i32.const 1)))
          (br_if $scalar (i32.ne
            (i32.and (i8x16.bitmask (i8x16.eq (local.get $v0) (v128.load (local.get $qidP)))) (local.get $k))
            (local.get $k)))
          ;; score: [-+]digits[.digits] filling the field, 1 to 15 digits
          (local.set $q (i32.add (local.get $p) (i32.add (local.get $s4) (i32.const 1))))
          (local.set $qe (i32.add (local.get $p) (local.get $s5)))
          (local.set $c (i32.load8_u (local.get $q)))
          (local.set $neg (i32.eq (local.get $c) (i32.const 45)))
          (if (i32.or (local.get $neg) (i32.eq (local.get $c) (i32.const 43)))
            (then (local.set $q (i32.add (local.get $q) (i32.const 1)))))
          (local.set $m (i64.const 0))
          (local.set $digits (i32.const 0))
          (local.set $frac (i32.const -1))
          (block $numEnd
            (loop $num
              (br_if $numEnd (i32.ge_u (local.get $q) (local.get $qe)))
              (local.set $c (i32.sub (i32.load8_u (local.get $q)) (i32.const 48)))
              (if (i32.lt_u (local.get $c) (i32.const 10))
                (then
                  (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (local.get $c))))
                  (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                  (if (i32.ge_s (local.get $frac) (i32.const 0))
                    (then (local.set $frac (i32.add (local.get $frac) (i32.const 1))))))
                (else
                  ;; '.' is 46 = 48 - 2: the first one starts the fraction, anything else declines
                  (br_if $scalar (i32.or (i32.ne (local.get $c) (i32.const -2)) (i32.ge_s (local.get $frac) (i32.const 0))))
                  (local.set $frac (i32.const 0))))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $num)))
          (br_if $scalar (i32.or (i32.eqz (local.get $digits)) (i32.gt_u (local.get $digits) (i32.const 15))))
          ;; docno: copied 16 bytes at a time (the arena has 64 bytes of slack), then hashed
          (local.set $q (i32.add (local.get $p) (i32.add (local.get $s2) (i32.const 1))))
          (local.set $qe (i32.add (local.get $p) (local.get $s3)))
          (local.set $k (i32.add (local.get $arenaP) (local.get $ap)))
          (local.set $ap (i32.add (local.get $ap) (i32.sub (local.get $qe) (local.get $q))))
          (loop $copy
            (v128.store (local.get $k) (v128.load (local.get $q)))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (br_if $copy (i32.lt_u (local.get $q) (local.get $qe))))
          (local.set $q (i32.add (local.get $p) (i32.add (local.get $s2) (i32.const 1))))
          (local.set $h (i32.const 0x811c9dc5))
          (loop $hash
            (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load8_u (local.get $q))) (i32.const 16777619)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br_if $hash (i32.lt_u (local.get $q) (local.get $qe))))
          (local.set $rs (i32.add (local.get $p) (i32.add (local.get $s5) (i32.const 1))))
          (local.set $re (i32.add (local.get $p) (local.get $s6)))
          (local.set $p (i32.add (local.get $p) (i32.add (local.get $L) (i32.const 1))))
          (br $row))

        ;; ---- scalar path: the same rules byte by byte (long lines, repeated spaces)
        ;; qid: usually the previous line's
        (local.set $k (i32.const 0))
        (if (i32.and (i32.gt_s (local.get $qidLen) (i32.const 0))
                     (i32.eq (i32.load8_u (i32.add (local.get $p) (local.get $qidLen))) (i32.const 32)))
          (then
            (block $cmpEnd
              (loop $cmp
                (br_if $cmpEnd (i32.ge_s (local.get $k) (local.get $qidLen)))
                (br_if $cmpEnd (i32.ne (i32.load8_u (i32.add (local.get $p) (local.get $k)))
                                       (i32.load8_u (i32.add (local.get $qidP) (local.get $k)))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $cmp)))))
        (local.set $status (i32.const 2))
        (br_if $stop (i32.or (i32.ne (local.get $k) (local.get $qidLen)) (i32.eqz (local.get $k))))
        (local.set $status (i32.const 1))
        (local.set $p (i32.add (local.get $p) (local.get $qidLen)))
        (loop $skip1 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $skip1 (i32.eq (local.get $c) (i32.const 32))))
        (br_if $stop (i32.lt_u (local.get $c) (i32.const 32)))
        ;; iter
        (loop $f2 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $f2 (i32.gt_u (local.get $c) (i32.const 32))))
        (br_if $stop (i32.ne (local.get $c) (i32.const 32)))
        (loop $skip2 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $skip2 (i32.eq (local.get $c) (i32.const 32))))
        (br_if $stop (i32.lt_u (local.get $c) (i32.const 32)))
        ;; docno
        (local.set $h (i32.const 0x811c9dc5))
        (loop $d
          (i32.store8 (i32.add (local.get $arenaP) (local.get $ap)) (local.get $c))
          (local.set $ap (i32.add (local.get $ap) (i32.const 1)))
          (local.set $h (i32.mul (i32.xor (local.get $h) (local.get $c)) (i32.const 16777619)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (local.set $c (i32.load8_u (local.get $p)))
          (br_if $d (i32.gt_u (local.get $c) (i32.const 32))))
        (br_if $stop (i32.ne (local.get $c) (i32.const 32)))
        (loop $skip3 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $skip3 (i32.eq (local.get $c) (i32.const 32))))
        (br_if $stop (i32.lt_u (local.get $c) (i32.const 32)))
        ;; rank
        (loop $f4 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $f4 (i32.gt_u (local.get $c) (i32.const 32))))
        (br_if $stop (i32.ne (local.get $c) (i32.const 32)))
        (loop $skip4 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $skip4 (i32.eq (local.get $c) (i32.const 32))))
        ;; score, as scanPlainDecimal (bytes.ts) reads it; then a space
        (local.set $neg (i32.eq (local.get $c) (i32.const 45)))
        (if (i32.or (local.get $neg) (i32.eq (local.get $c) (i32.const 43)))
          (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
        (local.set $m (i64.const 0))
        (local.set $digits (i32.const 0))
        (local.set $frac (i32.const -1))
        (block $numEnd2
          (loop $num2
            (local.set $c (i32.load8_u (local.get $p)))
            (if (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
              (then
                (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (i32.sub (local.get $c) (i32.const 48)))))
                (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                (if (i32.ge_s (local.get $frac) (i32.const 0))
                  (then (local.set $frac (i32.add (local.get $frac) (i32.const 1))))))
              (else
                (br_if $numEnd2 (i32.or (i32.ne (local.get $c) (i32.const 46)) (i32.ge_s (local.get $frac) (i32.const 0))))
                (local.set $frac (i32.const 0))))
            ;; more than 15 digits: the exact path (also keeps m below 2^53)
            (br_if $stop (i32.gt_u (local.get $digits) (i32.const 15)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $num2)))
        ;; the scan stops at the first byte it cannot take; only a space may follow a plain decimal here
        (br_if $stop (i32.or (i32.eqz (local.get $digits)) (i32.ne (local.get $c) (i32.const 32))))
        (loop $skip5 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $skip5 (i32.eq (local.get $c) (i32.const 32))))
        (br_if $stop (i32.lt_u (local.get $c) (i32.const 32)))
        ;; run_id, then \n, \r or a space (the rest of the line is skipped)
        (local.set $q (local.get $p))
        (loop $f6 (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $c (i32.load8_u (local.get $p)))
          (br_if $f6 (i32.gt_u (local.get $c) (i32.const 32))))
        (br_if $stop (i32.and (i32.ne (local.get $c) (i32.const 10))
                              (i32.and (i32.ne (local.get $c) (i32.const 32)) (i32.ne (local.get $c) (i32.const 13)))))
        (local.set $rs (local.get $q))
        (local.set $re (local.get $p))
        (if (i32.ne (local.get $c) (i32.const 10))
          (then (loop $toEol (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br_if $toEol (i32.ne (i32.load8_u (local.get $p)) (i32.const 10))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1))))
        ;; ---- both paths: the line read, p at the next one; the score m / 10^frac (both exact doubles, so
        ;; correctly rounded, as scanPlainDecimal computes it) and the row
        (local.set $v (f64.convert_i64_u (local.get $m)))
        (if (i32.gt_s (local.get $frac) (i32.const 0))
          (then (local.set $v (f64.div (local.get $v) (f64.load (i32.shl (local.get $frac) (i32.const 3)))))))
        (if (local.get $neg) (then (local.set $v (f64.neg (local.get $v)))))
        (f64.store (i32.add (local.get $scoresP) (i32.shl (local.get $n) (i32.const 3))) (local.get $v))
        (i32.store (i32.add (local.get $startsP) (i32.shl (local.get $n) (i32.const 2))) (i32.add (local.get $apBias) (local.get $docStart)))
        (i32.store (i32.add (local.get $hashesP) (i32.shl (local.get $n) (i32.const 2))) (local.get $h))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $line)))
    ;; status 0 when the loop ran out of input
    (if (i32.ge_u (local.get $p) (local.get $end))
      (then (local.set $status (i32.const 0)) (local.set $lineStart (local.get $p)) (local.set $docStart (local.get $ap))))
    (global.set $outP (local.get $lineStart))
    (global.set $outN (i32.sub (local.get $n) (local.get $rowBase)))
    (global.set $outAp (i32.sub (local.get $docStart) (local.get $apStart)))
    (global.set $runIdStart (local.get $rs))
    (global.set $runIdEnd (local.get $re))
    (local.get $status))

;; ---- ranking: Ranker (evaluate.ts) for a run whose columns are this memory (the rows parse wrote, rows
;; numbered from the columns' start, starts[] with its end sentinel). Mirrors Ranker.sortTopic and
;; Ranker.indexRanking (tableKey and firstSlot there); test/src/retrieval/trec/rank-kernel.test.ts compares the
;; two on random runs.
  (global $idxP (mut i32) (i32.const 0))
  (global $keysP (mut i32) (i32.const 0))
  (global $ranksP (mut i32) (i32.const 0))

  (func (export "setupRank") (param $idx i32) (param $keys i32) (param $ranks i32)
    (global.set $idxP (local.get $idx))
    (global.set $keysP (local.get $keys))
    (global.set $ranksP (local.get $ranks)))

  ;; docno a against docno b in byte order, as compareBytes (bytes.ts): < 0, 0 or > 0
  (func $compareDocnos (param $a i32) (param $b i32) (result i32)
    (local $pa i32) (local $pb i32) (local $la i32) (local $lb i32) (local $n i32) (local $k i32) (local $d i32)
    (local.set $pa (i32.load (i32.add (global.get $startsP) (i32.shl (local.get $a) (i32.const 2)))))
    (local.set $la (i32.sub (i32.load offset=4 (i32.add (global.get $startsP) (i32.shl (local.get $a) (i32.const 2)))) (local.get $pa)))
    (local.set $pb (i32.load (i32.add (global.get $startsP) (i32.shl (local.get $b) (i32.const 2)))))
    (local.set $lb (i32.sub (i32.load offset=4 (i32.add (global.get $startsP) (i32.shl (local.get $b) (i32.const 2)))) (local.get $pb)))
    (local.set $pa (i32.add (global.get $arenaP) (local.get $pa)))
    (local.set $pb (i32.add (global.get $arenaP) (local.get $pb)))
    (local.set $n (select (local.get $la) (local.get $lb) (i32.lt_s (local.get $la) (local.get $lb))))
    (block $done
      (loop $byte
        (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $d (i32.sub (i32.load8_u (i32.add (local.get $pa) (local.get $k))) (i32.load8_u (i32.add (local.get $pb) (local.get $k)))))
        (if (local.get $d) (then (return (local.get $d))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $byte)))
    (i32.sub (local.get $la) (local.get $lb)))

  ;; order(from, n): idx[k] = from + k, then, when the scores never increase, each stretch of equal scores ordered
  ;; by docno descending (insertion sort). Returns 0 when done; 1 when the scores are out of order or a stretch
  ;; of ties is longer than 16 (the JS sortTopic then orders the topic itself).
  (func (export "order") (param $from i32) (param $n i32) (result i32)
    (local $k i32) (local $idxP i32) (local $scoresP i32) (local $prev f64) (local $s f64) (local $tieStart i32)
    (local.set $idxP (global.get $idxP))
    (local.set $scoresP (global.get $scoresP))
    (block $filled
      (loop $fill
        (br_if $filled (i32.ge_u (local.get $k) (local.get $n)))
        (i32.store (i32.add (local.get $idxP) (i32.shl (local.get $k) (i32.const 2))) (i32.add (local.get $from) (local.get $k)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $fill)))
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (local.set $prev (f64.load (i32.add (local.get $scoresP) (i32.shl (local.get $from) (i32.const 3)))))
    (local.set $k (i32.const 1))
    (block $checked
      (loop $check
        (br_if $checked (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $s (f64.load (i32.add (local.get $scoresP) (i32.shl (i32.add (local.get $from) (local.get $k)) (i32.const 3)))))
        (if (f64.ne (local.get $s) (local.get $prev))
          (then
            (if (i32.eqz (f64.gt (local.get $prev) (local.get $s))) (then (return (i32.const 1))))
            (if (i32.gt_u (i32.sub (local.get $k) (local.get $tieStart)) (i32.const 1))
              (then (if (call $sortTies (local.get $tieStart) (local.get $k)) (then (return (i32.const 1))))))
            (local.set $tieStart (local.get $k))
            (local.set $prev (local.get $s))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $check)))
    (if (i32.gt_u (i32.sub (local.get $n) (local.get $tieStart)) (i32.const 1))
      (then (return (call $sortTies (local.get $tieStart) (local.get $n)))))
    (i32.const 0))

  ;; idx[from, to) by docno descending, as sortTies (evaluate.ts) for up to 16 entries; 1 for a longer stretch
  (func $sortTies (param $from i32) (param $to i32) (result i32)
    (local $k i32) (local $j i32) (local $v i32) (local $u i32) (local $idxP i32)
    (if (i32.gt_u (i32.sub (local.get $to) (local.get $from)) (i32.const 16)) (then (return (i32.const 1))))
    (local.set $idxP (global.get $idxP))
    (local.set $k (i32.add (local.get $from) (i32.const 1)))
    (block $sorted
      (loop $next
        (br_if $sorted (i32.ge_u (local.get $k) (local.get $to)))
        (local.set $v (i32.load (i32.add (local.get $idxP) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $j (i32.sub (local.get $k) (i32.const 1)))
        (block $placed
          (loop $shift
            (br_if $placed (i32.lt_s (local.get $j) (local.get $from)))
            (local.set $u (i32.load (i32.add (local.get $idxP) (i32.shl (local.get $j) (i32.const 2)))))
            (br_if $placed (i32.le_s (call $compareDocnos (local.get $v) (local.get $u)) (i32.const 0)))
            (i32.store offset=4 (i32.add (local.get $idxP) (i32.shl (local.get $j) (i32.const 2))) (local.get $u))
            (local.set $j (i32.sub (local.get $j) (i32.const 1)))
            (br $shift)))
        (i32.store offset=4 (i32.add (local.get $idxP) (i32.shl (local.get $j) (i32.const 2))) (local.get $v))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (i32.const 0))

  ;; index(n, mask): the docnos idx[0, n) into the table keys/ranks of mask + 1 slots (a power of two, at least
  ;; 16), as Ranker.indexRanking: key = hash | 1 (0: free), rank = position. Returns the row of the smallest
  ;; docno (byte order) ranked twice, or -1.
  (func (export "index") (param $n i32) (param $mask i32) (result i32)
    (local $k i32) (local $i i32) (local $h i32) (local $key i32) (local $slot i32) (local $other i32) (local $dup i32)
    (local $at i32) (local $end i32) (local $keysP i32) (local $ranksP i32) (local $idxP i32) (local $hashesP i32)
    (local.set $keysP (global.get $keysP))
    (local.set $ranksP (global.get $ranksP))
    (local.set $idxP (global.get $idxP))
    (local.set $hashesP (global.get $hashesP))
    (local.set $at (local.get $keysP))
    (local.set $end (i32.add (local.get $keysP) (i32.shl (i32.add (local.get $mask) (i32.const 1)) (i32.const 2))))
    (loop $clear
      (v128.store (local.get $at) (v128.const i64x2 0 0))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $clear (i32.lt_u (local.get $at) (local.get $end))))
    (local.set $dup (i32.const -1))
    (block $indexed
      (loop $doc
        (br_if $indexed (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $i (i32.load (i32.add (local.get $idxP) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $h (i32.load (i32.add (local.get $hashesP) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $key (i32.or (local.get $h) (i32.const 1)))
        (local.set $slot (i32.and (i32.mul (local.get $h) (i32.const 0x85ebca6b)) (local.get $mask)))
        (block $insert
          (loop $probe
            (local.set $other (i32.load (i32.add (local.get $keysP) (i32.shl (local.get $slot) (i32.const 2)))))
            (br_if $insert (i32.eqz (local.get $other)))
            (if (i32.eq (local.get $other) (local.get $key))
              (then
                (if (i32.eqz (call $compareDocnos
                      (i32.load (i32.add (local.get $idxP) (i32.shl
                        (i32.load (i32.add (local.get $ranksP) (i32.shl (local.get $slot) (i32.const 2)))) (i32.const 2))))
                      (local.get $i)))
                  (then
                    ;; ranked twice: keep the smallest such docno
                    (if (i32.or (i32.lt_s (local.get $dup) (i32.const 0))
                                (i32.lt_s (call $compareDocnos (local.get $i) (local.get $dup)) (i32.const 0)))
                      (then (local.set $dup (local.get $i))))
                    (local.set $k (i32.add (local.get $k) (i32.const 1)))
                    (br $doc)))))
            (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (i32.store (i32.add (local.get $keysP) (i32.shl (local.get $slot) (i32.const 2))) (local.get $key))
        (i32.store (i32.add (local.get $ranksP) (i32.shl (local.get $slot) (i32.const 2))) (local.get $k))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $doc)))
    (local.get $dup))
)
