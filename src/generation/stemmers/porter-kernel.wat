;; NLTK 3.8's Porter stemmer, mode NLTK_EXTENSIONS, steps 1a to 5b, on a lower-case ASCII word (porter.ts's runSteps,
;; rule for rule: porter-kernel.test.ts holds the two equal). The caller writes the word's bytes at $word and has
;; already handled the irregular forms and the words of two letters or fewer. Stemming only ever shortens a word or
;; rewrites its last few letters, so it works in place.
;;
;; Written out here, not compiled from porter.ts: a fresh process stems each new word of an eval set once, mostly
;; before the JIT has optimised the JS rules, and that first pass is what a test file meets.
(module
  (memory (export "memory") 1)

  ;; the word: positions 0 … n-1 of the word are bytes $word … $word + n - 1 (the loads of a letter use $word as their offset)
  (global $word i32 (i32.const 1024))
  (global $n (mut i32) (i32.const 0))
  ;; how many of the word's first letters no rule has rewritten or cut: the stem is the word's first $kept letters
  ;; and its letters from $kept on, so the caller reads back only those (most stems are a prefix of their word)
  (global $kept (mut i32) (i32.const 0))

  ;; suffixes the steps test by name
  (data (i32.const 128) "ies")   ;; 128
  (data (i32.const 131) "ied")   ;; 131
  (data (i32.const 134) "eed")   ;; 134; "ed" is 135
  (data (i32.const 137) "ing")   ;; 137
  (data (i32.const 140) "at")    ;; 140
  (data (i32.const 142) "bl")    ;; 142
  (data (i32.const 144) "iz")    ;; 144
  (data (i32.const 146) "*d")    ;; 146
  (data (i32.const 148) "alli")  ;; 148
  (data (i32.const 152) "ll")    ;; 152

  ;; Rule lists, each in its step's order (the first rule whose suffix matches decides), ended by a 0: a rule is
  ;; [suffix length][suffix][replacement length][replacement][condition]. Conditions (see $holds): 0 none, 1 m > 0,
  ;; 2 m > 1, 3 m > 1 and the stem ends in s or t, 4 m of the stem and one more letter > 0 (NLTK's logi), 5 NLTK's y.
  (data (i32.const 256) "\04sses\02ss\00" "\03ies\01i\00" "\02ss\02ss\00" "\01s\00\00" "\00")
  (data (i32.const 320) "\01y\01i\05" "\00")
  (data (i32.const 384)
    "\07ational\03ate\01" "\06tional\04tion\01" "\04enci\04ence\01" "\04anci\04ance\01" "\04izer\03ize\01"
    "\03bli\03ble\01" "\04alli\02al\01" "\05entli\03ent\01" "\03eli\01e\01" "\05ousli\03ous\01"
    "\07ization\03ize\01" "\05ation\03ate\01" "\04ator\03ate\01" "\05alism\02al\01" "\07iveness\03ive\01"
    "\07fulness\03ful\01" "\07ousness\03ous\01" "\05aliti\02al\01" "\05iviti\03ive\01" "\06biliti\03ble\01"
    "\05fulli\03ful\01" "\04logi\03log\04" "\00")
  (data (i32.const 640)
    "\05icate\02ic\01" "\05ative\00\01" "\05alize\02al\01" "\05iciti\02ic\01" "\04ical\02ic\01" "\03ful\00\01"
    "\04ness\00\01" "\00")
  (data (i32.const 768)
    "\02al\00\02" "\04ance\00\02" "\04ence\00\02" "\02er\00\02" "\02ic\00\02" "\04able\00\02" "\04ible\00\02"
    "\03ant\00\02" "\05ement\00\02" "\04ment\00\02" "\03ent\00\02" "\03ion\00\03" "\02ou\00\02" "\03ism\00\02"
    "\03ate\00\02" "\03iti\00\02" "\03ous\00\02" "\03ive\00\02" "\03ize\00\02" "\00")

  ;; a, e, i, o, u: bits 0, 4, 8, 14 and 20 of the mask, counted from 'a'
  (func $isAeiou (param $c i32) (result i32)
    (local.set $c (i32.sub (local.get $c) (i32.const 97)))
    (i32.and (i32.lt_u (local.get $c) (i32.const 21))
             (i32.and (i32.shr_u (i32.const 0x104111) (local.get $c)) (i32.const 1))))

  ;; Porter's consonant test at i: a y is a consonant at 0, else iff the letter before it is a vowel, so the status
  ;; alternates along a run of y's, starting from the letter before the run.
  (func $cons (param $i i32) (result i32)
    (local $c i32) (local $j i32) (local $first i32)
    (local.set $c (i32.load8_u offset=1024 (local.get $i)))
    (if (call $isAeiou (local.get $c)) (then (return (i32.const 0))))
    (if (i32.ne (local.get $c) (i32.const 121)) (then (return (i32.const 1))))
    (local.set $j (local.get $i))
    (block $run
      (loop $back
        (br_if $run (i32.eqz (local.get $j)))
        (br_if $run (i32.ne (i32.load8_u offset=1024 (i32.sub (local.get $j) (i32.const 1))) (i32.const 121)))
        (local.set $j (i32.sub (local.get $j) (i32.const 1)))
        (br $back)))
    (local.set $first
      (if (result i32) (i32.eqz (local.get $j))
        (then (i32.const 1))
        (else (call $isAeiou (i32.load8_u offset=1024 (i32.sub (local.get $j) (i32.const 1)))))))
    (if (result i32) (i32.and (i32.sub (local.get $i) (local.get $j)) (i32.const 1))
      (then (i32.eqz (local.get $first)))
      (else (local.get $first))))

  ;; m of the first len letters: the number of vowel → consonant transitions
  (func $measure (param $len i32) (result i32)
    (local $m i32) (local $i i32) (local $c i32) (local $prev i32) (local $consonant i32)
    (local.set $prev (i32.const 1))
    (block $done
      (loop $letters
        (br_if $done (i32.ge_s (local.get $i) (local.get $len)))
        (local.set $c (i32.load8_u offset=1024 (local.get $i)))
        ;; $isAeiou written out: this loop runs for every condition a rule tests
        (local.set $consonant
          (if (result i32) (i32.and (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 21))
                                    (i32.shr_u (i32.const 0x104111) (i32.sub (local.get $c) (i32.const 97))))
            (then (i32.const 0))
            (else
              (if (result i32) (i32.eq (local.get $c) (i32.const 121))
                (then (i32.or (i32.eqz (local.get $i)) (i32.eqz (local.get $prev))))
                (else (i32.const 1))))))
        (if (i32.and (local.get $consonant) (i32.eqz (local.get $prev)))
          (then (local.set $m (i32.add (local.get $m) (i32.const 1)))))
        (local.set $prev (local.get $consonant))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $letters)))
    (local.get $m))

  (func $hasVowel (param $len i32) (result i32)
    (local $i i32)
    (block $done
      (loop $letters
        (br_if $done (i32.ge_s (local.get $i) (local.get $len)))
        (if (i32.eqz (call $cons (local.get $i))) (then (return (i32.const 1))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $letters)))
    (i32.const 0))

  ;; whether the first len letters end with the sl bytes at s
  (func $endsAt (param $len i32) (param $s i32) (param $sl i32) (result i32)
    (local $from i32) (local $k i32)
    (local.set $from (i32.sub (local.get $len) (local.get $sl)))
    (if (i32.lt_s (local.get $from) (i32.const 0)) (then (return (i32.const 0))))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $k) (local.get $sl)))
        (if (i32.ne (i32.load8_u offset=1024 (i32.add (local.get $from) (local.get $k))) (i32.load8_u (i32.add (local.get $s) (local.get $k))))
          (then (return (i32.const 0))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $bytes)))
    (i32.const 1))

  (func $endsDoubleConsonant (param $len i32) (result i32)
    (if (result i32) (i32.lt_s (local.get $len) (i32.const 2))
      (then (i32.const 0))
      (else
        (i32.and
          (i32.eq (i32.load8_u offset=1024 (i32.sub (local.get $len) (i32.const 1))) (i32.load8_u offset=1024 (i32.sub (local.get $len) (i32.const 2))))
          (call $cons (i32.sub (local.get $len) (i32.const 1)))))))

  ;; *o: consonant-vowel-consonant, the last not w, x or y; NLTK also takes a 2-letter vowel-consonant
  (func $endsCvc (param $len i32) (result i32)
    (local $last i32)
    (if (i32.ge_s (local.get $len) (i32.const 3))
      (then
        (local.set $last (i32.load8_u offset=1024 (i32.sub (local.get $len) (i32.const 1))))
        (if (i32.and
              (i32.and (call $cons (i32.sub (local.get $len) (i32.const 3)))
                       (i32.eqz (call $cons (i32.sub (local.get $len) (i32.const 2)))))
              (i32.and (call $cons (i32.sub (local.get $len) (i32.const 1)))
                       (i32.and (i32.ne (local.get $last) (i32.const 119))
                                (i32.and (i32.ne (local.get $last) (i32.const 120)) (i32.ne (local.get $last) (i32.const 121))))))
          (then (return (i32.const 1))))))
    (if (result i32) (i32.eq (local.get $len) (i32.const 2))
      (then (i32.and (i32.eqz (call $cons (i32.const 0))) (call $cons (i32.const 1))))
      (else (i32.const 0))))

  ;; whether condition c holds for the stem of the first len letters
  (func $holds (param $c i32) (param $len i32) (result i32)
    (local $last i32)
    (if (i32.eqz (local.get $c)) (then (return (i32.const 1))))
    (if (i32.eq (local.get $c) (i32.const 1)) (then (return (i32.gt_s (call $measure (local.get $len)) (i32.const 0)))))
    (if (i32.eq (local.get $c) (i32.const 2)) (then (return (i32.gt_s (call $measure (local.get $len)) (i32.const 1)))))
    (if (i32.eq (local.get $c) (i32.const 3))
      (then
        (if (i32.le_s (call $measure (local.get $len)) (i32.const 1)) (then (return (i32.const 0))))
        ;; m > 1 implies a stem of at least 4 letters
        (local.set $last (i32.load8_u offset=1024 (i32.sub (local.get $len) (i32.const 1))))
        (return (i32.or (i32.eq (local.get $last) (i32.const 115)) (i32.eq (local.get $last) (i32.const 116))))))
    (if (i32.eq (local.get $c) (i32.const 4))
      (then (return (i32.gt_s (call $measure (i32.add (local.get $len) (i32.const 1))) (i32.const 0)))))
    ;; 5: NLTK's (*c and not c) Y → I: only after a consonant, in a stem longer than one letter
    (i32.and (i32.gt_s (local.get $len) (i32.const 1)) (call $cons (i32.sub (local.get $len) (i32.const 1)))))

  ;; The rule list at t: the first rule whose suffix ends the word decides (its replacement if its condition holds).
  (func $apply (param $t i32)
    (local $sl i32) (local $rl i32) (local $stem i32) (local $last i32)
    (if (i32.eqz (global.get $n)) (then (return)))
    (local.set $last (i32.load8_u offset=1024 (i32.sub (global.get $n) (i32.const 1))))
    (block $done
      (loop $rules
        (local.set $sl (i32.load8_u (local.get $t)))
        (br_if $done (i32.eqz (local.get $sl)))
        (local.set $rl (i32.load8_u (i32.add (i32.add (local.get $t) (i32.const 1)) (local.get $sl))))
        ;; a suffix's last letter first: it rules out almost every rule without a call
        (if (i32.eq (i32.load8_u (i32.add (local.get $t) (local.get $sl))) (local.get $last))
          (then
            (if (call $endsAt (global.get $n) (i32.add (local.get $t) (i32.const 1)) (local.get $sl))
              (then
                (local.set $stem (i32.sub (global.get $n) (local.get $sl)))
                (if (call $holds (i32.load8_u (i32.add (i32.add (i32.add (local.get $t) (i32.const 2)) (local.get $sl)) (local.get $rl)))
                                 (local.get $stem))
                  (then
                    (memory.copy (i32.add (global.get $word) (local.get $stem))
                                 (i32.add (i32.add (local.get $t) (i32.const 2)) (local.get $sl))
                                 (local.get $rl))
                    (call $rewrite (local.get $stem) (i32.add (local.get $stem) (local.get $rl)))))
                (br $done)))))
        (local.set $t (i32.add (local.get $t) (i32.add (i32.const 3) (i32.add (local.get $sl) (local.get $rl)))))
        (br $rules))))

  ;; The word is now len letters, and its letters from `from` on may differ from the word's own.
  (func $rewrite (param $from i32) (param $len i32)
    (global.set $n (local.get $len))
    (if (i32.lt_s (local.get $from) (global.get $kept)) (then (global.set $kept (local.get $from)))))

  (func $setLength (param $len i32)
    (call $rewrite (local.get $len) (local.get $len)))

  ;; Ends the word's first s letters with the letter c.
  (func $endWith (param $s i32) (param $c i32)
    (i32.store8 (i32.add (global.get $word) (local.get $s)) (local.get $c))
    (call $rewrite (local.get $s) (i32.add (local.get $s) (i32.const 1))))

  (func $step1a
    ;; NLTK: 'dies' → 'die' (but 'flies' → 'fli'); the word's own 'ie' stays in place
    (if (i32.and (i32.eq (global.get $n) (i32.const 4)) (call $endsAt (i32.const 4) (i32.const 128) (i32.const 3)))
      (then (call $setLength (i32.const 3)) (return)))
    (call $apply (i32.const 256)))

  (func $step1b
    (local $n i32) (local $s i32) (local $last i32)
    (local.set $n (global.get $n))
    ;; NLTK: 'died' → 'die', 'spied' → 'spi', before the eed/ed rules (the letters kept are the word's own)
    (if (call $endsAt (local.get $n) (i32.const 131) (i32.const 3))
      (then
        (call $setLength (select (i32.const 3) (i32.sub (local.get $n) (i32.const 2)) (i32.eq (local.get $n) (i32.const 4))))
        (return)))
    (if (call $endsAt (local.get $n) (i32.const 134) (i32.const 3))
      (then
        (if (i32.gt_s (call $measure (i32.sub (local.get $n) (i32.const 3))) (i32.const 0))
          (then (call $setLength (i32.sub (local.get $n) (i32.const 1)))))
        (return)))
    ;; s: the stem left after removing ed or ing
    (block $found
      (if (call $endsAt (local.get $n) (i32.const 135) (i32.const 2))
        (then
          (if (call $hasVowel (i32.sub (local.get $n) (i32.const 2)))
            (then (local.set $s (i32.sub (local.get $n) (i32.const 2))) (br $found)))))
      (if (call $endsAt (local.get $n) (i32.const 137) (i32.const 3))
        (then
          (if (call $hasVowel (i32.sub (local.get $n) (i32.const 3)))
            (then (local.set $s (i32.sub (local.get $n) (i32.const 3))) (br $found)))))
      (return))
    ;; the clean-up rules after removing ed/ing
    (if (i32.or (call $endsAt (local.get $s) (i32.const 140) (i32.const 2))
                (i32.or (call $endsAt (local.get $s) (i32.const 142) (i32.const 2)) (call $endsAt (local.get $s) (i32.const 144) (i32.const 2))))
      (then
        (call $endWith (local.get $s) (i32.const 101))
        (return)))
    (if (call $endsDoubleConsonant (local.get $s))
      (then
        ;; l, s, z stay doubled
        (local.set $last (i32.load8_u offset=1024 (i32.sub (local.get $s) (i32.const 1))))
        (call $setLength
          (select (local.get $s) (i32.sub (local.get $s) (i32.const 1))
                  (i32.or (i32.eq (local.get $last) (i32.const 108))
                          (i32.or (i32.eq (local.get $last) (i32.const 115)) (i32.eq (local.get $last) (i32.const 122))))))
        (return)))
    ;; NLTK's *d rule is a pseudo-suffix '*d', so a literal '*d' ending matches it and keeps its 'd'
    (if (call $endsAt (local.get $s) (i32.const 146) (i32.const 2))
      (then
        (call $endWith (i32.sub (local.get $s) (i32.const 2)) (i32.const 100))
        (return)))
    (if (i32.and (i32.eq (call $measure (local.get $s)) (i32.const 1)) (call $endsCvc (local.get $s)))
      (then
        (call $endWith (local.get $s) (i32.const 101))
        (return)))
    (call $setLength (local.get $s)))

  (func $step2
    ;; NLTK applies alli → al before the other rules and then runs step 2 again on the result
    (loop $again
      (if (call $endsAt (global.get $n) (i32.const 148) (i32.const 4))
        (then
          (if (i32.gt_s (call $measure (i32.sub (global.get $n) (i32.const 4))) (i32.const 0))
            (then
              (call $setLength (i32.sub (global.get $n) (i32.const 2)))
              (br $again))))))
    (call $apply (i32.const 384)))

  (func $step5a
    (local $n i32) (local $m i32)
    (local.set $n (global.get $n))
    (if (i32.eqz (local.get $n)) (then (return)))
    (if (i32.ne (i32.load8_u offset=1024 (i32.sub (local.get $n) (i32.const 1))) (i32.const 101)) (then (return)))
    (local.set $m (call $measure (i32.sub (local.get $n) (i32.const 1))))
    (if (i32.or (i32.gt_s (local.get $m) (i32.const 1))
                (i32.and (i32.eq (local.get $m) (i32.const 1)) (i32.eqz (call $endsCvc (i32.sub (local.get $n) (i32.const 1))))))
      (then (call $setLength (i32.sub (local.get $n) (i32.const 1))))))

  (func $step5b
    (if (call $endsAt (global.get $n) (i32.const 152) (i32.const 2))
      (then
        (if (i32.gt_s (call $measure (i32.sub (global.get $n) (i32.const 1))) (i32.const 1))
          (then (call $setLength (i32.sub (global.get $n) (i32.const 1))))))))

  ;; Stems the len bytes at $word (len < 65536); returns the stem's length + 65536 × how many of its first letters
  ;; are the word's own (the letters after those are at $word).
  (func (export "stem") (param $len i32) (result i32)
    (global.set $n (local.get $len))
    (global.set $kept (local.get $len))
    (call $step1a)
    (call $step1b)
    (call $apply (i32.const 320))
    (call $step2)
    (call $apply (i32.const 640))
    (call $apply (i32.const 768))
    (call $step5a)
    (call $step5b)
    (i32.or (global.get $n) (i32.shl (global.get $kept) (i32.const 16))))

  (func (export "wordAt") (result i32) (global.get $word)))
