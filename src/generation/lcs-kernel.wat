;; rouge-score's LCS path (its `_lcs_table` + `_backtrack_norec` walk) for sentence-sized pairs as WebAssembly, the
;; same bit-parallel rows as lcs.ts lcsPathRows: row i is a bit vector over the columns of `can` whose bit j is 0
;; exactly where t[i][j+1] = t[i][j] + 1. lcs-kernel.ts drives it; lcs.ts keeps the JS kernels for long pairs and for
;; runtimes without WebAssembly. Assembled by scripts/build-wasm.mjs into lcs-kernel-wasm.ts; the LCS tests hold it
;; to the plain DP table walk.
;;
;; Why WebAssembly: a test file meets ROUGE-L cold, and JS runs its first thousands of pairs in V8's baseline tiers;
;; this code needs no warm-up.
;;
;; path(rows, cols) reads ref (rows ids) and can (cols ids, then 4 ids of -1 so that 4-wide loads past the end
;; match nothing) and writes the path, ascending indices into ref, to out; returns its length.
(module
  (memory (export "memory") 1)
  (global $refP (mut i32) (i32.const 0))
  (global $canP (mut i32) (i32.const 0))
  (global $rowsP (mut i32) (i32.const 0)) ;; (rows + 1) rows of ⌈cols / 32⌉ words
  (global $outP (mut i32) (i32.const 0))

  (func (export "setup") (param $ref i32) (param $can i32) (param $rowTable i32) (param $out i32)
    (global.set $refP (local.get $ref))
    (global.set $canP (local.get $can))
    (global.set $rowsP (local.get $rowTable))
    (global.set $outP (local.get $out)))

  ;; t[row][j]: the 0 bits of the row (at address r) below column j
  (func $prefix (param $r i32) (param $j i32) (result i32)
    (local $ones i32) (local $end i32) (local $rest i32)
    (local.set $end (i32.add (local.get $r) (i32.shl (i32.shr_u (local.get $j) (i32.const 5)) (i32.const 2))))
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $r) (local.get $end)))
        (local.set $ones (i32.add (local.get $ones) (i32.popcnt (i32.load (local.get $r)))))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $words)))
    (local.set $rest (i32.and (local.get $j) (i32.const 31)))
    (if (local.get $rest)
      (then
        (local.set $ones
          (i32.add (local.get $ones)
                   (i32.popcnt (i32.and (i32.load (local.get $end))
                                        (i32.sub (i32.shl (i32.const 1) (local.get $rest)) (i32.const 1))))))))
    (i32.sub (local.get $j) (local.get $ones)))

  (func (export "path") (param $rows i32) (param $cols i32) (result i32)
    (local $words i32) (local $rowBytes i32) (local $w i32) (local $i i32) (local $x v128) (local $prev i32)
    (local $row i32) (local $carry i64) (local $m i32) (local $j i32) (local $jEnd i32) (local $y i32) (local $u i32)
    (local $sum i64) (local $cur i32) (local $up i32) (local $left i32) (local $n i32) (local $total i32) (local $c i32)
    (local.set $words (i32.shr_u (i32.add (local.get $cols) (i32.const 31)) (i32.const 5)))
    (local.set $rowBytes (i32.shl (local.get $words) (i32.const 2)))
    ;; row 0: all ones
    (memory.fill (global.get $rowsP) (i32.const 0xff) (local.get $rowBytes))
    (local.set $i (i32.const 1))
    (loop $rowLoop
      (if (i32.le_u (local.get $i) (local.get $rows))
        (then
          (local.set $x (i32x4.splat (i32.load (i32.add (global.get $refP) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 2))))))
          (local.set $row (i32.add (global.get $rowsP) (i32.mul (local.get $i) (local.get $rowBytes))))
          (local.set $prev (i32.sub (local.get $row) (local.get $rowBytes)))
          (local.set $carry (i64.const 0))
          (local.set $w (i32.const 0))
          (loop $wordLoop
            ;; this word's match mask: 4 columns at a time
            (local.set $m (i32.const 0))
            (local.set $j (i32.shl (local.get $w) (i32.const 5)))
            (local.set $jEnd (i32.add (local.get $j) (i32.const 32)))
            (if (i32.gt_u (local.get $jEnd) (local.get $cols)) (then (local.set $jEnd (local.get $cols))))
            (loop $cells
              (if (i32.lt_u (local.get $j) (local.get $jEnd))
                (then
                  (local.set $m
                    (i32.or (local.get $m)
                            (i32.shl (i32x4.bitmask (i32x4.eq (v128.load (i32.add (global.get $canP) (i32.shl (local.get $j) (i32.const 2))))
                                                              (local.get $x)))
                                     (i32.and (local.get $j) (i32.const 31)))))
                  (local.set $j (i32.add (local.get $j) (i32.const 4)))
                  (br $cells))))
            ;; V <- (V + U) | (V & ~U) with U = V & match, the carry running from word to word
            (local.set $y (i32.load (i32.add (local.get $prev) (i32.shl (local.get $w) (i32.const 2)))))
            (local.set $u (i32.and (local.get $y) (local.get $m)))
            (local.set $sum (i64.add (i64.add (i64.extend_i32_u (local.get $y)) (i64.extend_i32_u (local.get $u))) (local.get $carry)))
            (local.set $carry (i64.shr_u (local.get $sum) (i64.const 32)))
            (i32.store (i32.add (local.get $row) (i32.shl (local.get $w) (i32.const 2)))
                       (i32.or (i32.wrap_i64 (local.get $sum)) (i32.and (local.get $y) (i32.xor (local.get $u) (i32.const -1)))))
            (local.set $w (i32.add (local.get $w) (i32.const 1)))
            (br_if $wordLoop (i32.lt_u (local.get $w) (local.get $words))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $rowLoop))))
    ;; rouge-score's walk from (rows, cols): cur = t[i][j], up = t[i-1][j]; the path is written from its end
    (local.set $i (local.get $rows))
    (local.set $j (local.get $cols))
    (local.set $row (i32.add (global.get $rowsP) (i32.mul (local.get $i) (local.get $rowBytes))))
    (local.set $cur (call $prefix (local.get $row) (local.get $j)))
    (local.set $up (call $prefix (i32.sub (local.get $row) (local.get $rowBytes)) (local.get $j)))
    (local.set $total (local.get $cur))
    (local.set $n (local.get $cur))
    (block $walked
      (loop $walk
        (br_if $walked (i32.or (i32.eqz (local.get $i)) (i32.eqz (local.get $j))))
        (if (i32.eq (i32.load (i32.add (global.get $refP) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 2))))
                    (i32.load (i32.add (global.get $canP) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 2)))))
          (then
            (local.set $n (i32.sub (local.get $n) (i32.const 1)))
            (local.set $i (i32.sub (local.get $i) (i32.const 1)))
            (i32.store (i32.add (global.get $outP) (i32.shl (local.get $n) (i32.const 2))) (local.get $i))
            (local.set $j (i32.sub (local.get $j) (i32.const 1)))
            (local.set $cur (i32.sub (local.get $cur) (i32.const 1)))
            (local.set $row (i32.sub (local.get $row) (local.get $rowBytes)))
            (if (local.get $i)
              (then (local.set $up (call $prefix (i32.sub (local.get $row) (local.get $rowBytes)) (local.get $j)))))
            (br $walk)))
        ;; left = t[i][j-1]: cur - 1 unless bit j-1 of the row is set (written out here: the walk takes a step per
        ;; cell of its path, and a call cost more than its work)
        (local.set $c (i32.sub (local.get $j) (i32.const 1)))
        (local.set $left
          (i32.sub (local.get $cur)
                   (i32.xor (i32.and (i32.shr_u (i32.load (i32.add (local.get $row) (i32.shl (i32.shr_u (local.get $c) (i32.const 5)) (i32.const 2))))
                                                (i32.and (local.get $c) (i32.const 31)))
                                     (i32.const 1))
                            (i32.const 1))))
        (if (i32.gt_s (local.get $left) (local.get $up))
          (then
            (local.set $j (i32.sub (local.get $j) (i32.const 1)))
            (local.set $cur (local.get $left))
            ;; t[i-1][j-1] (d) bounds both neighbours: up and left are d or d + 1, so left > up means left = d + 1
            ;; and up = d, and at (i, j-1) the cell above is d again
            (local.set $up (i32.sub (local.get $left) (i32.const 1))))
          (else
            (local.set $i (i32.sub (local.get $i) (i32.const 1)))
            (local.set $cur (local.get $up))
            (local.set $row (i32.sub (local.get $row) (local.get $rowBytes)))
            (if (local.get $i)
              (then (local.set $up (call $prefix (i32.sub (local.get $row) (local.get $rowBytes)) (local.get $j)))))))
        (br $walk)))
    (local.get $total)))
