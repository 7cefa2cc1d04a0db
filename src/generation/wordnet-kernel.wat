;; METEOR's synonym lookup in WordNet (wordnet.ts synsetLines, morphyLines and forEachName, and meteor-words.ts
;; addNameKey), for a lower-case ASCII word: the form entries of the names of every synset NLTK 3.8's
;; wordnet.synsets(word) gives, in the same order. wordnet-kernel.ts copies the loaded tables and the form index
;; (wordnet-index.ts) into this memory, so the entries are the JS index's own. What the kernel does not do it hands
;; back (-1): a name that is no form (none in WordNet 3.0), an output or a round of morphy past its room.
;; wordnet-kernel.test.ts holds it to the JS path on every WordNet lemma, their stems and random words.
;;
;; Written out here because a fresh process looks up each new word of an eval set once, mostly before the JIT has
;; optimised the JS lookup, and that first pass is what a test file meets.
(module
  (memory (export "memory") 1)

  ;; The layout wordnet-kernel.ts writes (i32 addresses and numbers):
  ;;   0 slots, 4 mask, 8 entry mask, 12 keys (per record: its key's address here, its length), 24 next record + 1
  ;;   32 + 4c: column c's text (c < 4: part of speech c's lemmas; c ≥ 4: part of speech c - 4's exceptions)
  ;;   64 + 4c: column c's first record; 96 + 4c: its end
  ;;   128 + 16p: part of speech p's lemma-synsets text, + 4 its line starts, + 8 its synsets text, + 12 their starts
  ;;   192 + 4p: p's number of synsets; 208 + 4p: the line starts of p's exceptions
  ;; 256 + 64p: p's detachment rules (NLTK 3.8 MORPHOLOGICAL_SUBSTITUTIONS, in order): [old length][old][new length]
  ;; [new] each, then 0. 512: the lemma lines morphy keeps (256 at most); 1536: the word; 2560: a form a rule makes;
  ;; 4096: the output, 65536 entries at most; 266240: morphy's later rounds; 331776: the tables.
  (data (i32.const 256) "\01s\00" "\03ses\01s" "\03ves\01f" "\03xes\01x" "\03zes\01z" "\04ches\02ch" "\04shes\02sh"
                        "\03men\03man" "\03ies\01y" "\00")
  (data (i32.const 320) "\01s\00" "\03ies\01y" "\02es\01e" "\02es\00" "\02ed\01e" "\02ed\00" "\03ing\01e" "\03ing\00" "\00")
  (data (i32.const 384) "\02er\00" "\03est\00" "\02er\01e" "\03est\01e" "\00")
  (data (i32.const 448) "\00")

  (global $keep i32 (i32.const 512))
  (global $keepMax i32 (i32.const 256))
  (global $word i32 (i32.const 1536))
  (global $scratch i32 (i32.const 2560))
  (global $out i32 (i32.const 4096))
  (global $outMax i32 (i32.const 65536))
  ;; morphy's later rounds: two lists of forms (at most 512 each) and their bytes (16 KiB each)
  (global $listA i32 (i32.const 266240))
  (global $listB i32 (i32.const 270400))
  (global $listMax i32 (i32.const 512))
  (global $arenaA i32 (i32.const 274560))
  (global $arenaB i32 (i32.const 290944))
  (global $arenaBytes i32 (i32.const 16384))

  ;; The letters some rule of a part of speech ends with, as bits counted from 'a' (index 4: any part of speech):
  ;; noun s n; verb s d g; adjective r t; adverb none.
  (func $isRuleFinal (param $p i32) (param $c i32) (result i32)
    (local $mask i32)
    (local.set $mask
      (if (result i32) (i32.eqz (local.get $p)) (then (i32.const 0x42000))
        (else (if (result i32) (i32.eq (local.get $p) (i32.const 1)) (then (i32.const 0x40048))
          (else (if (result i32) (i32.eq (local.get $p) (i32.const 2)) (then (i32.const 0xa0000))
            (else (if (result i32) (i32.eq (local.get $p) (i32.const 3)) (then (i32.const 0)) (else (i32.const 0xe2048))))))))))
    (local.set $c (i32.sub (local.get $c) (i32.const 97)))
    (i32.and (i32.lt_u (local.get $c) (i32.const 26)) (i32.and (i32.shr_u (local.get $mask) (local.get $c)) (i32.const 1))))

  ;; The form entry of the n bytes at a (wordnet-index.ts FormIndex.findJoined: FNV-1a, linear probing, the hash's
  ;; high bits beside the entry), or -1.
  (func $find (param $a i32) (param $n i32) (result i32)
    (local $h i32) (local $i i32) (local $slot i32) (local $value i32) (local $entryMask i32) (local $tag i32)
    (local $entry i32) (local $key i32) (local $k i32) (local $mask i32) (local $slots i32) (local $keys i32) (local $record i32)
    (local.set $h (i32.const 0x811c9dc5))
    (block $hashed
      (loop $bytes
        (br_if $hashed (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load8_u (i32.add (local.get $a) (local.get $i)))) (i32.const 0x01000193)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $bytes)))
    (local.set $entryMask (i32.load (i32.const 8)))
    (local.set $mask (i32.load (i32.const 4)))
    (local.set $slots (i32.load (i32.const 0)))
    (local.set $keys (i32.load (i32.const 12)))
    (local.set $tag (i32.and (local.get $h) (i32.xor (local.get $entryMask) (i32.const -1))))
    (local.set $slot (i32.and (local.get $h) (local.get $mask)))
    (loop $probe
      (local.set $value (i32.load (i32.add (local.get $slots) (i32.shl (local.get $slot) (i32.const 2)))))
      (if (i32.eqz (local.get $value)) (then (return (i32.const -1))))
      (if (i32.eq (i32.and (local.get $value) (i32.xor (local.get $entryMask) (i32.const -1))) (local.get $tag))
        (then
          (local.set $entry (i32.sub (i32.and (local.get $value) (local.get $entryMask)) (i32.const 1)))
          ;; the entry's record: where its key is, and its length (one cache line for both)
          (local.set $record (i32.add (local.get $keys) (i32.shl (local.get $entry) (i32.const 3))))
          (if (i32.eq (i32.load offset=4 (local.get $record)) (local.get $n))
            (then
              (local.set $key (i32.load (local.get $record)))
              (local.set $k (i32.const 0))
              (block $differ
                (loop $compare
                  (if (i32.ge_u (local.get $k) (local.get $n)) (then (return (local.get $entry))))
                  (br_if $differ (i32.ne (i32.load8_u (i32.add (local.get $key) (local.get $k)))
                                         (i32.load8_u (i32.add (local.get $a) (local.get $k)))))
                  (local.set $k (i32.add (local.get $k) (i32.const 1)))
                  (br $compare)))))))
      (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
      (br $probe))
    (i32.const -1))

  ;; The line of entry's key in column c, or -1 (FormIndex.line: the smallest record of the column on its chain).
  (func $lineOf (param $entry i32) (param $c i32) (result i32)
    (local $first i32) (local $end i32) (local $found i32) (local $record i32) (local $next i32)
    (local.set $next (i32.load (i32.const 24)))
    (local.set $first (i32.load (i32.add (i32.const 64) (i32.shl (local.get $c) (i32.const 2)))))
    (local.set $end (i32.load (i32.add (i32.const 96) (i32.shl (local.get $c) (i32.const 2)))))
    (local.set $found (i32.const -1))
    (local.set $record (local.get $entry))
    (block $done
      (loop $chain
        (br_if $done (i32.lt_s (local.get $record) (i32.const 0)))
        (if (i32.and (i32.and (i32.ge_s (local.get $record) (local.get $first)) (i32.lt_s (local.get $record) (local.get $end)))
                     (i32.or (i32.lt_s (local.get $found) (i32.const 0)) (i32.lt_s (local.get $record) (local.get $found))))
          (then (local.set $found (local.get $record))))
        (local.set $record (i32.sub (i32.load (i32.add (local.get $next) (i32.shl (local.get $record) (i32.const 2)))) (i32.const 1)))
        (br $chain)))
    (if (result i32) (i32.lt_s (local.get $found) (i32.const 0))
      (then (i32.const -1))
      (else (i32.sub (local.get $found) (local.get $first)))))

  ;; morphy's filter: appends lemma line `line` to the kept lines unless it is -1 or kept already; the new count, or
  ;; -1 past the room.
  (func $keepLine (param $line i32) (param $n i32) (result i32)
    (local $k i32)
    (if (i32.lt_s (local.get $line) (i32.const 0)) (then (return (local.get $n))))
    (block $new
      (loop $kept
        (br_if $new (i32.ge_u (local.get $k) (local.get $n)))
        (if (i32.eq (i32.load (i32.add (global.get $keep) (i32.shl (local.get $k) (i32.const 2)))) (local.get $line))
          (then (return (local.get $n))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $kept)))
    (if (i32.ge_u (local.get $n) (global.get $keepMax)) (then (return (i32.const -1))))
    (i32.store (i32.add (global.get $keep) (i32.shl (local.get $n) (i32.const 2))) (local.get $line))
    (i32.add (local.get $n) (i32.const 1)))

  ;; NLTK 3.8 _morphy(word, p) as part of speech p's lemma lines, kept at $keep (wordnet.ts morphyLines): their number,
  ;; or -1 past the room of the kept lines or of the rounds.
  (func $morphy (param $len i32) (param $entry i32) (param $p i32) (result i32)
    (local $n i32) (local $exception i32) (local $text i32) (local $starts i32) (local $from i32) (local $end i32)
    (local $to i32) (local $rule i32) (local $oldLength i32) (local $newLength i32) (local $cut i32) (local $more i32)
    (local $last i32)
    (local.set $n (call $keepLine (call $lineOf (local.get $entry) (local.get $p)) (i32.const 0)))
    (local.set $exception (call $lineOf (local.get $entry) (i32.add (local.get $p) (i32.const 4))))
    (if (i32.ge_s (local.get $exception) (i32.const 0))
      (then
        ;; `form base…`: each base after the form, split on single spaces
        (local.set $text (i32.load (i32.add (i32.const 48) (i32.shl (local.get $p) (i32.const 2)))))
        (local.set $starts (i32.load (i32.add (i32.const 208) (i32.shl (local.get $p) (i32.const 2)))))
        (local.set $from
          (i32.add (i32.add (i32.load (i32.add (local.get $starts) (i32.shl (local.get $exception) (i32.const 2)))) (local.get $len))
                   (i32.const 1)))
        (local.set $end (i32.sub (i32.load (i32.add (local.get $starts) (i32.shl (i32.add (local.get $exception) (i32.const 1)) (i32.const 2))))
                                 (i32.const 1)))
        (block $bases
          (loop $base
            (br_if $bases (i32.gt_s (local.get $from) (local.get $end)))
            (local.set $to (local.get $from))
            (block $found
              (loop $scan
                (br_if $found (i32.ge_s (local.get $to) (local.get $end)))
                (br_if $found (i32.eq (i32.load8_u (i32.add (local.get $text) (local.get $to))) (i32.const 32)))
                (local.set $to (i32.add (local.get $to) (i32.const 1)))
                (br $scan)))
            (local.set $n
              (call $keepLine
                (call $lineOf (call $find (i32.add (local.get $text) (local.get $from)) (i32.sub (local.get $to) (local.get $from))) (local.get $p))
                (local.get $n)))
            (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (i32.const -1))))
            (local.set $from (i32.add (local.get $to) (i32.const 1)))
            (br $base)))
        (return (local.get $n))))
    (if (i32.eqz (local.get $len)) (then (return (local.get $n))))
    (if (i32.eqz (call $isRuleFinal (local.get $p) (i32.load8_u (i32.add (global.get $word) (i32.sub (local.get $len) (i32.const 1))))))
      (then (return (local.get $n))))
    (local.set $rule (i32.add (i32.const 256) (i32.shl (local.get $p) (i32.const 6))))
    (block $rules
      (loop $next
        (local.set $oldLength (i32.load8_u (local.get $rule)))
        (br_if $rules (i32.eqz (local.get $oldLength)))
        (local.set $newLength (i32.load8_u (i32.add (i32.add (local.get $rule) (i32.const 1)) (local.get $oldLength))))
        (local.set $cut (i32.sub (local.get $len) (local.get $oldLength)))
        (if (i32.ge_s (local.get $cut) (i32.const 0))
          (then
            (if (call $same (i32.add (global.get $word) (local.get $cut)) (i32.add (local.get $rule) (i32.const 1)) (local.get $oldLength))
              (then
                ;; the word's head + the rule's ending
                (memory.copy (global.get $scratch) (global.get $word) (local.get $cut))
                (memory.copy (i32.add (global.get $scratch) (local.get $cut))
                             (i32.add (i32.add (local.get $rule) (i32.const 2)) (local.get $oldLength)) (local.get $newLength))
                (local.set $n
                  (call $keepLine
                    (call $lineOf (call $find (global.get $scratch) (i32.add (local.get $cut) (local.get $newLength))) (local.get $p))
                    (local.get $n)))
                (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (i32.const -1))))
                ;; whether the form made meets a rule in its turn: its last letter is the ending's, or the head's
                (if (i32.eqz (local.get $more))
                  (then
                    (local.set $last
                      (if (result i32) (local.get $newLength)
                        (then (i32.load8_u (i32.add (i32.add (i32.add (local.get $rule) (i32.const 1)) (local.get $oldLength)) (local.get $newLength))))
                        (else
                          (if (result i32) (local.get $cut)
                            (then (i32.load8_u (i32.add (global.get $word) (i32.sub (local.get $cut) (i32.const 1)))))
                            (else (i32.const 0))))))
                    (local.set $more (call $isRuleFinal (local.get $p) (local.get $last)))))))))
        (local.set $rule (i32.add (local.get $rule) (i32.add (i32.const 2) (i32.add (local.get $oldLength) (local.get $newLength)))))
        (br $next)))
    (if (i32.or (local.get $n) (i32.eqz (local.get $more))) (then (return (local.get $n))))
    (call $laterRounds (local.get $len) (local.get $p)))

  ;; morphy's later rounds, for a word whose first round kept nothing (n = 0): round 1 is the rules applied to the word,
  ;; then each round is the rules applied to the one before, until a round keeps a lemma line or makes no form. The
  ;; kept count, or -1 past the rounds' room. Every rule but men → man shortens a form, so the rounds end.
  (func $laterRounds (param $len i32) (param $p i32) (result i32)
    (local $n i32) (local $from i32) (local $to i32) (local $count i32) (local $k i32)
    ;; round 0: the word itself
    (memory.copy (global.get $arenaA) (global.get $word) (local.get $len))
    (i32.store (global.get $listA) (i32.const 1))
    (i32.store offset=4 (global.get $listA) (global.get $arenaA))
    (i32.store offset=8 (global.get $listA) (local.get $len))
    (local.set $count (call $applyRules (local.get $p) (i32.const 0)))
    (if (i32.lt_s (local.get $count) (i32.const 0)) (then (return (i32.const -1))))
    (local.set $from (i32.const 1))
    (block $done
      (loop $round
        (br_if $done (i32.eqz (local.get $count)))
        (local.set $count (call $applyRules (local.get $p) (local.get $from)))
        (if (i32.lt_s (local.get $count) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $to (select (global.get $listA) (global.get $listB) (local.get $from)))
        (local.set $k (i32.const 0))
        (block $kept
          (loop $form
            (br_if $kept (i32.ge_u (local.get $k) (local.get $count)))
            (local.set $n
              (call $keepLine
                (call $lineOf
                  (call $find (i32.load offset=4 (i32.add (local.get $to) (i32.shl (local.get $k) (i32.const 3))))
                              (i32.load offset=8 (i32.add (local.get $to) (i32.shl (local.get $k) (i32.const 3)))))
                  (local.get $p))
                (local.get $n)))
            (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (i32.const -1))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $form)))
        (br_if $done (local.get $n))
        (local.set $from (i32.xor (local.get $from) (i32.const 1)))
        (br $round)))
    (local.get $n))

  ;; One round of part of speech p's rules over the forms of list `from` (0: A, 1: B), each distinct output once, in
  ;; order, into the other list: their number, or -1 past the room. A list is [count][address, length]…; its forms'
  ;; bytes are in its arena.
  (func $applyRules (param $p i32) (param $from i32) (result i32)
    (local $source i32) (local $target i32) (local $arena i32) (local $arenaEnd i32) (local $used i32) (local $count i32)
    (local $f i32) (local $forms i32) (local $form i32) (local $length i32) (local $rule i32) (local $oldLength i32)
    (local $newLength i32) (local $cut i32) (local $made i32) (local $madeLength i32) (local $k i32) (local $other i32)
    (local.set $source (select (global.get $listB) (global.get $listA) (local.get $from)))
    (local.set $target (select (global.get $listA) (global.get $listB) (local.get $from)))
    (local.set $arena (select (global.get $arenaA) (global.get $arenaB) (local.get $from)))
    (local.set $arenaEnd (i32.add (local.get $arena) (global.get $arenaBytes)))
    (local.set $used (local.get $arena))
    (local.set $forms (i32.load (local.get $source)))
    (block $done
      (loop $eachForm
        (br_if $done (i32.ge_u (local.get $f) (local.get $forms)))
        (local.set $form (i32.load offset=4 (i32.add (local.get $source) (i32.shl (local.get $f) (i32.const 3)))))
        (local.set $length (i32.load offset=8 (i32.add (local.get $source) (i32.shl (local.get $f) (i32.const 3)))))
        (local.set $rule (i32.add (i32.const 256) (i32.shl (local.get $p) (i32.const 6))))
        (block $rules
          (loop $next
            (local.set $oldLength (i32.load8_u (local.get $rule)))
            (br_if $rules (i32.eqz (local.get $oldLength)))
            (local.set $newLength (i32.load8_u (i32.add (i32.add (local.get $rule) (i32.const 1)) (local.get $oldLength))))
            (local.set $cut (i32.sub (local.get $length) (local.get $oldLength)))
            (if (i32.ge_s (local.get $cut) (i32.const 0))
              (then
                (if (call $same (i32.add (local.get $form) (local.get $cut)) (i32.add (local.get $rule) (i32.const 1)) (local.get $oldLength))
                  (then
                    (local.set $madeLength (i32.add (local.get $cut) (local.get $newLength)))
                    (if (i32.gt_u (i32.add (local.get $used) (local.get $madeLength)) (local.get $arenaEnd)) (then (return (i32.const -1))))
                    ;; made at the arena's end; kept (the end moves) unless the round has it already
                    (local.set $made (local.get $used))
                    (memory.copy (local.get $made) (local.get $form) (local.get $cut))
                    (memory.copy (i32.add (local.get $made) (local.get $cut))
                                 (i32.add (i32.add (local.get $rule) (i32.const 2)) (local.get $oldLength)) (local.get $newLength))
                    (local.set $k (i32.const 0))
                    (block $new
                      (loop $earlier
                        (br_if $new (i32.ge_u (local.get $k) (local.get $count)))
                        (local.set $other (i32.add (local.get $target) (i32.shl (local.get $k) (i32.const 3))))
                        (if (i32.eq (i32.load offset=8 (local.get $other)) (local.get $madeLength))
                          (then
                            (if (call $same (i32.load offset=4 (local.get $other)) (local.get $made) (local.get $madeLength))
                              (then (local.set $madeLength (i32.const -1)) (br $new)))))
                        (local.set $k (i32.add (local.get $k) (i32.const 1)))
                        (br $earlier)))
                    (if (i32.ge_s (local.get $madeLength) (i32.const 0))
                      (then
                        (if (i32.ge_u (local.get $count) (global.get $listMax)) (then (return (i32.const -1))))
                        (i32.store offset=4 (i32.add (local.get $target) (i32.shl (local.get $count) (i32.const 3))) (local.get $made))
                        (i32.store offset=8 (i32.add (local.get $target) (i32.shl (local.get $count) (i32.const 3))) (local.get $madeLength))
                        (local.set $count (i32.add (local.get $count) (i32.const 1)))
                        (local.set $used (i32.add (local.get $used) (local.get $madeLength)))))))))
            (local.set $rule (i32.add (local.get $rule) (i32.add (i32.const 2) (i32.add (local.get $oldLength) (local.get $newLength)))))
            (br $next)))
        (local.set $f (i32.add (local.get $f) (i32.const 1)))
        (br $eachForm)))
    (i32.store (local.get $target) (local.get $count))
    (local.get $count))

  ;; whether the n bytes at a and at b are equal
  (func $same (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $k i32)
    (block $differ
      (loop $bytes
        (if (i32.ge_u (local.get $k) (local.get $n)) (then (return (i32.const 1))))
        (br_if $differ (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $k))) (i32.load8_u (i32.add (local.get $b) (local.get $k)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $bytes)))
    (i32.const 0))

  ;; Appends the entries of the names on part of speech p's synset line `id` (space-separated; a name with a capital
  ;; never equals a lower-case word and is passed over); the new count, or -1 for a name that is no form or no room.
  (func $names (param $p i32) (param $id i32) (param $count i32) (result i32)
    (local $text i32) (local $starts i32) (local $from i32) (local $end i32) (local $to i32) (local $k i32)
    (local $capital i32) (local $entry i32) (local $c i32)
    (if (i32.ge_u (local.get $id) (i32.load (i32.add (i32.const 192) (i32.shl (local.get $p) (i32.const 2))))) (then (return (local.get $count))))
    (local.set $text (i32.load (i32.add (i32.const 136) (i32.shl (local.get $p) (i32.const 4)))))
    (local.set $starts (i32.load (i32.add (i32.const 140) (i32.shl (local.get $p) (i32.const 4)))))
    (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $id) (i32.const 2)))))
    (local.set $end (i32.sub (i32.load (i32.add (local.get $starts) (i32.shl (i32.add (local.get $id) (i32.const 1)) (i32.const 2)))) (i32.const 1)))
    (if (i32.eq (local.get $from) (local.get $end)) (then (return (local.get $count))))
    (loop $name
      (local.set $to (local.get $from))
      (local.set $capital (i32.const 0))
      (block $ended
        (loop $scan
          (br_if $ended (i32.ge_s (local.get $to) (local.get $end)))
          (local.set $c (i32.load8_u (i32.add (local.get $text) (local.get $to))))
          (br_if $ended (i32.eq (local.get $c) (i32.const 32)))
          (if (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26)) (then (local.set $capital (i32.const 1))))
          (local.set $to (i32.add (local.get $to) (i32.const 1)))
          (br $scan)))
      (if (i32.eqz (local.get $capital))
        (then
          (local.set $entry (call $find (i32.add (local.get $text) (local.get $from)) (i32.sub (local.get $to) (local.get $from))))
          (if (i32.lt_s (local.get $entry) (i32.const 0)) (then (return (i32.const -1))))
          (if (i32.ge_u (local.get $count) (global.get $outMax)) (then (return (i32.const -1))))
          (i32.store (i32.add (global.get $out) (i32.shl (local.get $count) (i32.const 2))) (local.get $entry))
          (local.set $count (i32.add (local.get $count) (i32.const 1)))))
      (if (i32.ge_s (local.get $to) (local.get $end)) (then (return (local.get $count))))
      (local.set $from (i32.add (local.get $to) (i32.const 1)))
      (br $name))
    (local.get $count))

  ;; The form entry of the len bytes at $word, or -1.
  (func (export "formEntry") (param $len i32) (result i32)
    (call $find (global.get $word) (local.get $len)))

  ;; The entries of the names of the len-byte word's synsets, in NLTK's order (parts of speech n, v, a, r; each
  ;; morphy form; the lemma's synset order), written at $out: their number, or -1 for a word to look up in JS.
  (func (export "synonymKeys") (param $len i32) (result i32)
    (local $entry i32) (local $p i32) (local $n i32) (local $k i32) (local $count i32) (local $text i32)
    (local $starts i32) (local $i i32) (local $end i32) (local $c i32) (local $value i32) (local $digits i32)
    (local.set $entry (call $find (global.get $word) (local.get $len)))
    ;; most words METEOR looks up (stems such as `larg`) are in no table and meet no rule
    (if (i32.lt_s (local.get $entry) (i32.const 0))
      (then
        (if (i32.eqz (local.get $len)) (then (return (i32.const 0))))
        (if (i32.eqz (call $isRuleFinal (i32.const 4) (i32.load8_u (i32.add (global.get $word) (i32.sub (local.get $len) (i32.const 1))))))
          (then (return (i32.const 0))))))
    (loop $pos
      (local.set $n (call $morphy (local.get $len) (local.get $entry) (local.get $p)))
      (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (i32.const -1))))
      (local.set $text (i32.load (i32.add (i32.const 128) (i32.shl (local.get $p) (i32.const 4)))))
      (local.set $starts (i32.load (i32.add (i32.const 132) (i32.shl (local.get $p) (i32.const 4)))))
      (local.set $k (i32.const 0))
      (block $lines
        (loop $line
          (br_if $lines (i32.ge_u (local.get $k) (local.get $n)))
          ;; the lemma's synsets: base-36 numbers separated by spaces
          (local.set $i (i32.load (i32.add (local.get $starts) (i32.shl (i32.load (i32.add (global.get $keep) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))))
          (local.set $end (i32.sub (i32.load (i32.add (local.get $starts)
                                                       (i32.shl (i32.add (i32.load (i32.add (global.get $keep) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 1)) (i32.const 2))))
                                   (i32.const 1)))
          (local.set $value (i32.const 0))
          (local.set $digits (i32.const 0))
          (block $parsed
            (loop $unit
              (br_if $parsed (i32.gt_s (local.get $i) (local.get $end)))
              (local.set $c (if (result i32) (i32.lt_s (local.get $i) (local.get $end))
                              (then (i32.load8_u (i32.add (local.get $text) (local.get $i))))
                              (else (i32.const 32))))
              (if (i32.eq (local.get $c) (i32.const 32))
                (then
                  (if (local.get $digits)
                    (then
                      (local.set $count (call $names (local.get $p) (local.get $value) (local.get $count)))
                      (if (i32.lt_s (local.get $count) (i32.const 0)) (then (return (i32.const -1))))))
                  (local.set $value (i32.const 0))
                  (local.set $digits (i32.const 0)))
                (else
                  ;; base 36 as Number.prototype.toString(36) writes it: 0-9 then a-z
                  (local.set $value
                    (i32.add (i32.mul (local.get $value) (i32.const 36))
                             (select (i32.sub (local.get $c) (i32.const 48)) (i32.sub (local.get $c) (i32.const 87))
                                     (i32.le_u (local.get $c) (i32.const 57)))))
                  (local.set $digits (i32.add (local.get $digits) (i32.const 1)))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $unit)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $line)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br_if $pos (i32.lt_u (local.get $p) (i32.const 4))))
    (local.get $count))

  (func (export "wordAt") (result i32) (global.get $word))
  (func (export "outAt") (result i32) (global.get $out)))
