;; METEOR's alignment of one candidate against one reference as WebAssembly (NLTK 3.8's three stages: exact, Porter
;; stem, WordNet synonym), on the words' places in METEOR's vocabulary (meteor-words.ts) as the word kernel wrote them.
;; meteor-kernel.ts drives it; meteor.ts keeps its JS alignment for token arrays, non-ASCII and long texts and
;; runtimes without WebAssembly, and test/src/generation/meteor-kernel.test.ts holds the two to each other.
;;
;; Why WebAssembly: the JS alignment was about half of a warm METEOR pass; with this one a warm pass over 20,000
;; pairs takes 0.16 s against 0.22 s. (A first pass did not move: it is mostly new words' stems and WordNet lookups,
;; which stay in JS.)
;;
;; Each stage runs over the words still unaligned, candidate positions from last to first, each taking the LAST
;; unaligned reference position that qualifies. Per word, its unaligned reference positions form a list, highest
;; first (lastOf by place, nextDown by position), so "the last qualifying position" is a list's head: for the synonym
;; stage, the highest head over the word and its synonyms. That is NLTK's reversed double loop with pop(i)/pop(j)
;; (popping never reorders what is left) in O(H + R + synonyms) instead of O(H·R).
;;
;; A word's stem and its synonyms (in an arena) are asked of meteor-words.ts the first time a stage needs them. The synonym
;; stage compares words by their WordNet form entry (equal texts, equal entries), so that a synonym name that is a form
;; (with WordNet 3.0's data, every name METEOR can meet) needs no place in the vocabulary; a word that is no form is
;; compared by its place. meteor-words.ts may move the tables while it answers a call (they grow with the
;; vocabulary), so every table address is read from its global after such a call.
(module
  ;; stem(place): the place of the word's Porter stem
  (import "meteor" "stem" (func $askStem (param i32) (result i32)))
  ;; synonyms(place): the arena index of the word's synonym list: its length, then per name its form entry, or
  ;; -(place + 1) for a name that is no form
  (import "meteor" "synonyms" (func $askSynonyms (param i32) (result i32)))
  ;; key(place): the word's form entry, or -1 (the first entries asked may move the tables: the heads by entry grow)
  (import "meteor" "key" (func $askKey (param i32) (result i32)))
  (memory (export "memory") 1)
  ;; per position, set by setup()
  (global $hypP (mut i32) (i32.const 0)) ;; the candidate's places
  (global $refP (mut i32) (i32.const 0)) ;; the reference's places
  (global $hypStemsP (mut i32) (i32.const 0)) ;; the stems of the candidate's places unaligned by stage 1
  (global $refStemsP (mut i32) (i32.const 0)) ;; the same for the reference
  (global $codesP (mut i32) (i32.const 0)) ;; per candidate position: 4 · reference position + stage, or -1
  (global $matchedP (mut i32) (i32.const 0)) ;; a byte per reference position: the stage that aligned it, or 0
  (global $nextDownP (mut i32) (i32.const 0)) ;; per reference position: the next lower one in its word's list
  (global $resultP (mut i32) (i32.const 0)) ;; matches per stage (3), chunks
  ;; per place, set by tables()
  (global $stemOfP (mut i32) (i32.const 0)) ;; -1 until asked
  (global $synOfP (mut i32) (i32.const 0)) ;; -1 until asked
  (global $keyOfP (mut i32) (i32.const 0)) ;; the form entry + 1, 0 for no form; -1 until asked
  (global $lastOfP (mut i32) (i32.const 0)) ;; list heads; all -1 between stages
  (global $entryHeadsP (mut i32) (i32.const 0)) ;; per form entry, the synonym stage's list heads; all -1 between stages
  (global $arenaP (mut i32) (i32.const 0))

  (func (export "setup") (param $hyp i32) (param $ref i32) (param $hypStems i32) (param $refStems i32) (param $codes i32)
        (param $matched i32) (param $nextDown i32) (param $result i32)
    (global.set $hypP (local.get $hyp))
    (global.set $refP (local.get $ref))
    (global.set $hypStemsP (local.get $hypStems))
    (global.set $refStemsP (local.get $refStems))
    (global.set $codesP (local.get $codes))
    (global.set $matchedP (local.get $matched))
    (global.set $nextDownP (local.get $nextDown))
    (global.set $resultP (local.get $result)))

  (func (export "tables") (param $stemOf i32) (param $synOf i32) (param $keyOf i32) (param $lastOf i32)
        (param $entryHeads i32) (param $arena i32)
    (global.set $stemOfP (local.get $stemOf))
    (global.set $synOfP (local.get $synOf))
    (global.set $keyOfP (local.get $keyOf))
    (global.set $lastOfP (local.get $lastOf))
    (global.set $entryHeadsP (local.get $entryHeads))
    (global.set $arenaP (local.get $arena)))

  ;; The form entry + 1 of the word at place p (0: no form), asked the first time.
  (func $key (param $p i32) (result i32)
    (local $k i32)
    (local.set $k (i32.load (i32.add (global.get $keyOfP) (i32.shl (local.get $p) (i32.const 2)))))
    (if (i32.lt_s (local.get $k) (i32.const 0))
      (then
        (local.set $k (i32.add (call $askKey (local.get $p)) (i32.const 1)))
        (i32.store (i32.add (global.get $keyOfP) (i32.shl (local.get $p) (i32.const 2))) (local.get $k))))
    (local.get $k))

  ;; The address of the list head of the word at place p: by place, or (keyed) by its form entry when it has one.
  (func $head (param $p i32) (param $keyed i32) (result i32)
    (local $k i32)
    (if (local.get $keyed)
      (then
        (local.set $k (call $key (local.get $p)))
        (if (local.get $k)
          (then (return (i32.add (global.get $entryHeadsP) (i32.shl (i32.sub (local.get $k) (i32.const 1)) (i32.const 2))))))))
    (i32.add (global.get $lastOfP) (i32.shl (local.get $p) (i32.const 2))))

  ;; The place of the stem of the word at place p, asked the first time.
  (func $stem (param $p i32) (result i32)
    (local $s i32)
    (local.set $s (i32.load (i32.add (global.get $stemOfP) (i32.shl (local.get $p) (i32.const 2)))))
    (if (i32.lt_s (local.get $s) (i32.const 0))
      (then
        (local.set $s (call $askStem (local.get $p)))
        ;; the call may have moved the tables: the address is taken again
        (i32.store (i32.add (global.get $stemOfP) (i32.shl (local.get $p) (i32.const 2))) (local.get $s))))
    (local.get $s))

  ;; Writes to $to the stem of each of the n places at $from whose position is still unaligned (byte $aligned + k not
  ;; 0, or code at $aligned + 4k not -1 when $codes): NLTK replaces every remaining word by its stem.
  (func $stems (param $from i32) (param $to i32) (param $n i32) (param $aligned i32) (param $codes i32)
    (local $k i32) (local $free i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (if (local.get $codes)
          (then (local.set $free (i32.lt_s (i32.load (i32.add (local.get $aligned) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 0))))
          (else (local.set $free (i32.eqz (i32.load8_u (i32.add (local.get $aligned) (local.get $k)))))))
        (if (local.get $free)
          (then
            (i32.store (i32.add (local.get $to) (i32.shl (local.get $k) (i32.const 2)))
              (call $stem (i32.load (i32.add (local.get $from) (i32.shl (local.get $k) (i32.const 2))))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each))))

  ;; Lists the unaligned reference positions by word (the places at $words; keyed: by form entry), highest first.
  (func $list (param $R i32) (param $words i32) (param $keyed i32)
    (local $j i32) (local $at i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $j) (local.get $R)))
        (if (i32.eqz (i32.load8_u (i32.add (global.get $matchedP) (local.get $j))))
          (then
            (local.set $at (call $head (i32.load (i32.add (local.get $words) (i32.shl (local.get $j) (i32.const 2)))) (local.get $keyed)))
            (i32.store (i32.add (global.get $nextDownP) (i32.shl (local.get $j) (i32.const 2))) (i32.load (local.get $at)))
            (i32.store (local.get $at) (local.get $j))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $each))))

  ;; Puts the list heads back to -1: a list the stage emptied has -1 at its head already, and any other one has an
  ;; unaligned position there, so the words of the positions still unaligned are all it takes.
  (func $unlist (param $R i32) (param $words i32) (param $keyed i32)
    (local $j i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $j) (local.get $R)))
        (if (i32.eqz (i32.load8_u (i32.add (global.get $matchedP) (local.get $j))))
          (then
            (i32.store (call $head (i32.load (i32.add (local.get $words) (i32.shl (local.get $j) (i32.const 2)))) (local.get $keyed))
              (i32.const -1))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $each))))

  ;; Stages 1 and 2: equal words (the places at $hw and $rw: the words, or their stems). Returns how many pairs it
  ;; aligned. Nothing in it calls out, so the tables stay where they are.
  (func $matchEqual (param $H i32) (param $R i32) (param $stage i32) (param $hw i32) (param $rw i32) (result i32)
    (local $i i32) (local $j i32) (local $at i32) (local $count i32) (local $heads i32) (local $code i32)
    (call $list (local.get $R) (local.get $rw) (i32.const 0))
    (local.set $heads (global.get $lastOfP))
    (local.set $i (local.get $H))
    (block $done
      (loop $each
        (br_if $done (i32.eqz (local.get $i)))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (local.set $code (i32.add (global.get $codesP) (i32.shl (local.get $i) (i32.const 2))))
        (if (i32.lt_s (i32.load (local.get $code)) (i32.const 0))
          (then
            (local.set $at (i32.add (local.get $heads)
              (i32.shl (i32.load (i32.add (local.get $hw) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2))))
            (local.set $j (i32.load (local.get $at)))
            (if (i32.ge_s (local.get $j) (i32.const 0))
              (then
                (i32.store (local.get $at) (i32.load (i32.add (global.get $nextDownP) (i32.shl (local.get $j) (i32.const 2)))))
                (i32.store (local.get $code) (i32.add (i32.shl (local.get $j) (i32.const 2)) (local.get $stage)))
                (i32.store8 (i32.add (global.get $matchedP) (local.get $j)) (local.get $stage))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))))
        (br $each)))
    (call $unlist (local.get $R) (local.get $rw) (i32.const 0))
    (local.get $count))

  ;; The arena index of the synonym list of the word at place p, asked the first time.
  (func $synonyms (param $p i32) (result i32)
    (local $s i32)
    (local.set $s (i32.load (i32.add (global.get $synOfP) (i32.shl (local.get $p) (i32.const 2)))))
    (if (i32.lt_s (local.get $s) (i32.const 0))
      (then
        (local.set $s (call $askSynonyms (local.get $p)))
        (i32.store (i32.add (global.get $synOfP) (i32.shl (local.get $p) (i32.const 2))) (local.get $s))))
    (local.get $s))

  ;; Stage 3: the reference word is the candidate word or one of its WordNet synonyms (the places at $hw and $rw:
  ;; stemmed, the stems, as NLTK replaced every remaining word by its stem), compared by form entry. Stops once `room`
  ;; pairs are aligned (no reference position is left).
  (func $matchSynonyms (param $H i32) (param $R i32) (param $hw i32) (param $rw i32) (param $room i32) (result i32)
    (local $i i32) (local $w i32) (local $best i32) (local $bestAt i32) (local $at i32) (local $j i32)
    (local $list i32) (local $end i32) (local $count i32) (local $name i32) (local $code i32)
    (call $list (local.get $R) (local.get $rw) (i32.const 1))
    (local.set $i (local.get $H))
    (block $done
      (loop $each
        (br_if $done (i32.or (i32.eqz (local.get $i)) (i32.ge_u (local.get $count) (local.get $room))))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (local.set $code (i32.add (global.get $codesP) (i32.shl (local.get $i) (i32.const 2))))
        (if (i32.lt_s (i32.load (local.get $code)) (i32.const 0))
          (then
            (local.set $w (i32.load (i32.add (local.get $hw) (i32.shl (local.get $i) (i32.const 2)))))
            (drop (call $key (local.get $w)))
            ;; the synonyms call may move the tables: every address is taken after it ($head asks nothing now)
            (local.set $list (call $synonyms (local.get $w)))
            (local.set $list (i32.add (global.get $arenaP) (i32.shl (local.get $list) (i32.const 2))))
            (local.set $bestAt (call $head (local.get $w) (i32.const 1)))
            (local.set $best (i32.load (local.get $bestAt)))
            (local.set $end (i32.add (local.get $list) (i32.shl (i32.load (local.get $list)) (i32.const 2))))
            (block $names
              (loop $name
                (br_if $names (i32.ge_u (local.get $list) (local.get $end)))
                (local.set $list (i32.add (local.get $list) (i32.const 4)))
                (local.set $name (i32.load (local.get $list)))
                (local.set $at
                  (if (result i32) (i32.ge_s (local.get $name) (i32.const 0))
                    (then (i32.add (global.get $entryHeadsP) (i32.shl (local.get $name) (i32.const 2))))
                    ;; -(place + 1): lastOf[place] is at lastOf - 4 · (name + 1)
                    (else (i32.sub (global.get $lastOfP) (i32.shl (i32.add (local.get $name) (i32.const 1)) (i32.const 2))))))
                (local.set $j (i32.load (local.get $at)))
                (if (i32.gt_s (local.get $j) (local.get $best))
                  (then
                    (local.set $best (local.get $j))
                    (local.set $bestAt (local.get $at))))
                (br $name)))
            (if (i32.ge_s (local.get $best) (i32.const 0))
              (then
                (i32.store (local.get $bestAt) (i32.load (i32.add (global.get $nextDownP) (i32.shl (local.get $best) (i32.const 2)))))
                (i32.store (local.get $code) (i32.add (i32.shl (local.get $best) (i32.const 2)) (i32.const 3)))
                (i32.store8 (i32.add (global.get $matchedP) (local.get $best)) (i32.const 3))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))))
        (br $each)))
    (call $unlist (local.get $R) (local.get $rw) (i32.const 1))
    (local.get $count))

  ;; Aligns the H candidate places with the R reference places (flags: 1 stem stage, 2 synonym stage); writes the
  ;; codes, the matches per stage and the chunks; returns the matches.
  (func (export "align") (param $H i32) (param $R i32) (param $flags i32) (result i32)
    (local $m i32) (local $stem i32) (local $syn i32) (local $i i32) (local $code i32) (local $chunks i32)
    (local $previous i32) (local $previousRef i32) (local $hw i32) (local $rw i32)
    ;; every code -1 (all bytes 0xff), every reference position unaligned
    (memory.fill (global.get $codesP) (i32.const 255) (i32.shl (local.get $H) (i32.const 2)))
    (memory.fill (global.get $matchedP) (i32.const 0) (local.get $R))
    (local.set $hw (global.get $hypP))
    (local.set $rw (global.get $refP))
    (local.set $m (call $matchEqual (local.get $H) (local.get $R) (i32.const 1) (local.get $hw) (local.get $rw)))
    (i32.store (global.get $resultP) (local.get $m))
    ;; a stage is skipped once either side is fully aligned: it could not match anything (nor need a stem)
    (if (i32.and (i32.and (local.get $flags) (i32.const 1))
          (i32.and (i32.lt_u (local.get $m) (local.get $H)) (i32.lt_u (local.get $m) (local.get $R))))
      (then
        (local.set $hw (global.get $hypStemsP))
        (local.set $rw (global.get $refStemsP))
        (call $stems (global.get $hypP) (local.get $hw) (local.get $H) (global.get $codesP) (i32.const 1))
        (call $stems (global.get $refP) (local.get $rw) (local.get $R) (global.get $matchedP) (i32.const 0))
        (local.set $stem (call $matchEqual (local.get $H) (local.get $R) (i32.const 2) (local.get $hw) (local.get $rw)))))
    (local.set $m (i32.add (local.get $m) (local.get $stem)))
    (if (i32.and (i32.shr_u (local.get $flags) (i32.const 1))
          (i32.and (i32.lt_u (local.get $m) (local.get $H)) (i32.lt_u (local.get $m) (local.get $R))))
      (then (local.set $syn (call $matchSynonyms (local.get $H) (local.get $R) (local.get $hw) (local.get $rw)
        (i32.sub (local.get $R) (local.get $m))))))
    (local.set $m (i32.add (local.get $m) (local.get $syn)))
    ;; chunks: runs of pairs adjacent on both sides, in candidate order
    (local.set $previous (i32.const -2))
    (local.set $previousRef (i32.const -2))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $H)))
        (local.set $code (i32.load (i32.add (global.get $codesP) (i32.shl (local.get $i) (i32.const 2)))))
        (if (i32.ge_s (local.get $code) (i32.const 0))
          (then
            (local.set $code (i32.shr_u (local.get $code) (i32.const 2)))
            (if (i32.eqz (i32.and (i32.eq (local.get $i) (i32.add (local.get $previous) (i32.const 1)))
                                  (i32.eq (local.get $code) (i32.add (local.get $previousRef) (i32.const 1)))))
              (then (local.set $chunks (i32.add (local.get $chunks) (i32.const 1)))))
            (local.set $previous (local.get $i))
            (local.set $previousRef (local.get $code))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (i32.store offset=4 (global.get $resultP) (local.get $stem))
    (i32.store offset=8 (global.get $resultP) (local.get $syn))
    (i32.store offset=12 (global.get $resultP) (local.get $chunks))
    (local.get $m))
)
