/**
 * The scripted question writer the example's generated set was recorded from: NOT a language model. For
 * each passage of the built-in corpus it holds the reply a model might give when asked for a question
 * of each kind, written by hand, good replies and the mistakes small models make (a paraphrased keyword,
 * a keyword every passage has, a question that gives its answer away, a reference without the keyword,
 * half a JSON object, a refusal). `record.ts` serves it over the Ollama protocol on 127.0.0.1 and runs
 * `rag-matchers testset generate` against it once; the replies land in `__rag_judge_cache__/`, from
 * which `npm run example -- --generate` regenerates the set with no model at all.
 */

export type Reply = { readonly json: Readonly<Record<string, string>> } | { readonly raw: string } | { readonly refuse: string }

interface PassageScript {
  readonly factual: Reply
  readonly numeric?: Reply
  readonly unanswerable: Reply
}

const q = (question: string, answer: string, keyword: string): Reply => ({ json: { question, answer, keyword } })
const u = (question: string, keyword: string): Reply => ({ json: { question, keyword } })

/** Passage id → the replies for it. Every passage has a factual and an unanswerable reply; those with a number a numeric one. */
export const SCRIPT: Readonly<Record<string, PassageScript>> = {
  'overview-p1': {
    factual: q(
      'What does the Transformer use instead of recurrence to relate input and output positions?',
      'It relies on attention to relate positions of the input and output.',
      'relies on attention',
    ),
    numeric: q('In which year was the Transformer introduced for machine translation?', 'It was introduced in 2017.', '2017'),
    unanswerable: u('Which research lab funded the first Transformer experiments?', 'research lab funded'),
  },
  // A paraphrased keyword: the passage says "far more parallelism", not "greater parallelism".
  'overview-p2': {
    factual: q('Why does the Transformer train faster than recurrent networks?', 'Attention lets it train with greater parallelism.', 'greater parallelism'),
    unanswerable: u('How much electricity does training a Transformer use?', 'electricity'),
  },
  'encoder-p1': {
    factual: q(
      'What are the two sub-layers of each encoder layer?',
      'A multi-head self-attention mechanism and a position-wise fully connected feed-forward network.',
      'multi-head self-attention mechanism',
    ),
    numeric: q('How many identical layers does the encoder stack?', 'The encoder is a stack of N = 6 identical layers.', 'N = 6'),
    unanswerable: u('How many parameters does one encoder layer hold?', 'parameters'),
  },
  'encoder-p2': {
    factual: q(
      'What surrounds every sub-layer of the encoder?',
      'A residual connection followed by layer normalization.',
      'residual connection followed by layer normalization',
    ),
    unanswerable: u('Which initialisation scheme is used for the layer normalization gains?', 'initialisation scheme'),
  },
  'decoder-p1': {
    factual: q(
      'What does the third sub-layer of a decoder layer do?',
      'It performs attention over the output of the encoder stack.',
      'attention over the output of the encoder stack',
    ),
    unanswerable: u('How wide is the beam used when decoding?', 'beam'),
  },
  // Half a JSON object: the judge asks again (its repair retries), and the fake gives the same half again.
  'decoder-p2': {
    factual: { raw: '{"question": "Why is decoder self-attention masked?", "answer": "So a position cannot attend to later positions", ' },
    unanswerable: u('What masking value replaces the illegal connections in decoder self-attention?', 'masking value'),
  },
  'dimensions-p1': {
    factual: q('What do the uniform output dimensions of the sub-layers keep simple?', 'They keep the residual connections simple.', 'residual connections simple'),
    numeric: q('What is the output dimension of all sub-layers in the base configuration?', 'The outputs have dimension d_model = 512.', 'd_model = 512'),
    unanswerable: u('What vocabulary size does the big configuration use for German?', 'vocabulary size'),
  },
  'dimensions-p2': {
    factual: q('What does the big configuration double compared with the base one?', 'The big configuration doubles the width.', 'doubles the width'),
    numeric: q('How many heads does the big configuration use?', 'It uses 16 heads.', '16 heads'),
    unanswerable: u('How much memory does the big configuration need per GPU?', 'memory'),
  },
  // A keyword that is in almost every passage does not tell passages apart.
  'attention-p1': {
    factual: q('What maps a query and a set of key-value pairs to an output?', 'Attention does.', 'Attention'),
    unanswerable: u('Who first proposed additive attention?', 'additive attention'),
  },
  'attention-p2': {
    factual: q(
      'By what are the dot products of queries and keys divided in scaled dot-product attention?',
      'By the square root of the key dimension.',
      'square root of the key dimension',
    ),
    unanswerable: u('What temperature is applied to the softmax at inference time?', 'temperature'),
  },
  'multihead-p1': {
    factual: q(
      'What happens to the outputs of the attention heads after they run in parallel?',
      'Their outputs are concatenated and projected again.',
      'concatenated and projected again',
    ),
    unanswerable: u('Which head specialises in syntax in the trained model?', 'syntax'),
  },
  'multihead-p2': {
    factual: q(
      'What is the total cost of multi-head attention close to?',
      'It stays close to that of single-head attention with full dimensionality.',
      'single-head attention with full dimensionality',
    ),
    numeric: q('What are the key and value dimensions of each head in the base model?', 'For each head d_k = d_v = d_model / h = 64.', 'd_k = d_v = d_model / h = 64'),
    unanswerable: u('How long does one multi-head attention layer take on a CPU?', 'on a CPU'),
  },
  'heads-ablation-p1': {
    factual: q(
      'How does single-head attention compare with the best number of heads?',
      'Single-head attention is clearly worse than the best setting.',
      'clearly worse than the best setting',
    ),
    unanswerable: u('What is the best number of heads for the big model?', 'best number of heads for the big model'),
  },
  // A reference answer that does not contain the keyword (the model reworded it).
  'heads-ablation-p2': {
    factual: q('What happens to quality when the attention key size shrinks?', 'Smaller keys make the model worse.', 'hurts model quality'),
    unanswerable: u('Which key size was used in the smallest ablation?', 'smallest ablation'),
  },
  'feedforward-p1': {
    factual: q('Which activation sits between the two linear transformations of the feed-forward network?', 'A ReLU activation sits in between.', 'ReLU activation'),
    unanswerable: u('Why was GELU not used in the feed-forward network?', 'GELU'),
  },
  'feedforward-p2': {
    factual: q('What is the dimensionality of the input and output of the feed-forward network?', 'They have dimensionality 512.', 'dimensionality 512'),
    numeric: q('What is the inner-layer dimensionality of the feed-forward network?', 'The inner layer has dimensionality d_ff = 2048.', 'd_ff = 2048'),
    unanswerable: u('How many feed-forward experts does each layer route between?', 'experts'),
  },
  'positions-p1': {
    factual: q('How is information about token order given to the model?', 'By adding positional encodings to the input embeddings.', 'adding positional encodings'),
    unanswerable: u('How are positions encoded for sequences longer than any seen in training?', 'longer than any seen in training'),
  },
  // The question contains its own keyword: plain string matching would find the passage.
  'positions-p2': {
    factual: q('Which sine and cosine functions do the positional encodings use?', 'Sine and cosine functions of different frequencies.', 'sine and cosine functions'),
    unanswerable: u('Which frequency does the first positional dimension use?', 'first positional dimension'),
  },
  'training-data-p1': {
    factual: q('How were the English-German sentences encoded?', 'With byte-pair encoding into a shared vocabulary.', 'byte-pair encoding'),
    numeric: q('How many sentence pairs are in the English-German training data?', 'About 4.5 million sentence pairs.', '4.5 million sentence pairs'),
    unanswerable: u('How was the English-German data filtered for quality?', 'filtered for quality'),
  },
  'training-data-p2': {
    factual: q('What kind of vocabulary was used for English-French?', 'A 32000 word-piece vocabulary.', 'word-piece vocabulary'),
    numeric: q('How many sentences are in the English-French training data?', 'The dataset has 36M sentences.', '36M sentences'),
    unanswerable: u('How many English-French sentences were held out for validation?', 'held out for validation'),
  },
  'hardware-p1': {
    factual: q('Which GPUs were the models trained on?', 'On 8 NVIDIA P100 GPUs.', 'NVIDIA P100 GPUs'),
    numeric: q('How long did one training step of the base model take?', 'About 0.4 seconds per step.', '0.4 seconds'),
    unanswerable: u('How much did the training hardware cost?', 'hardware cost'),
  },
  'hardware-p2': {
    factual: q('For how many steps were the big models trained?', 'The big models trained for 300,000 steps.', '300,000 steps'),
    numeric: q('How long did the big models take to train?', 'Training took 3.5 days.', '3.5 days'),
    unanswerable: u('How many checkpoints were averaged for the base models?', 'checkpoints'),
  },
  'optimizer-p1': {
    factual: q('Which optimizer was used for training?', 'The Adam optimizer was used.', 'Adam optimizer'),
    // A numeric question whose keyword holds no number.
    numeric: q('What value of epsilon did the optimizer use?', 'Epsilon was set for Adam.', 'Adam'),
    unanswerable: u('What weight decay was used with the optimizer?', 'weight decay'),
  },
  'optimizer-p2': {
    factual: q(
      'How does the learning rate change after the warmup?',
      'It decreases proportionally to the inverse square root of the step number.',
      'inverse square root of the step number',
    ),
    numeric: q('For how many warmup steps does the learning rate increase?', 'It increases for the first 4000 warmup steps.', '4000 warmup steps'),
    unanswerable: u('What was the peak learning rate of the big model?', 'peak learning rate'),
  },
  'regularization-p1': {
    factual: q(
      'Where is residual dropout applied?',
      'To the output of each sub-layer and to the sums of the embeddings and positional encodings.',
      'output of each sub-layer',
    ),
    numeric: q('What dropout rate does the base model use?', 'The base model uses P_drop = 0.1.', 'P_drop = 0.1'),
    unanswerable: u('Was attention dropout applied to the attention weights?', 'attention weights'),
  },
  'regularization-p2': {
    factual: q('What does label smoothing hurt?', 'Label smoothing hurts perplexity.', 'hurts perplexity'),
    numeric: q('What value of label smoothing was used?', 'Label smoothing of value 0.1.', 'value 0.1'),
    unanswerable: u('Why was label smoothing switched off for parsing?', 'switched off'),
  },
  'results-en-de-p1': {
    factual: q(
      'How far above the best previous English-to-German models did the big Transformer score?',
      'More than 2 BLEU above the best previously reported models.',
      'more than 2 BLEU above',
    ),
    numeric: q('What BLEU score did the big Transformer reach on English-to-German?', 'It reached a BLEU score of 28.4.', '28.4'),
    unanswerable: u('What BLEU score did the big Transformer reach on English-to-Romanian?', 'English-to-Romanian'),
  },
  // The corpus does mention training cost: this question may well be answered.
  'results-en-de-p2': {
    factual: q('What did even the base model surpass?', 'All previously published models and ensembles.', 'all previously published models and ensembles'),
    unanswerable: u('What was the training cost of the base model compared with ensembles?', 'training cost'),
  },
  'results-en-fr-p1': {
    factual: q('Which earlier systems did the big model outperform on English-to-French?', 'All previously published single models.', 'previously published single models'),
    numeric: q('What BLEU score did the big model achieve on English-to-French?', 'It achieved a BLEU score of 41.0.', '41.0'),
    unanswerable: u('How did human raters judge the English-to-French translations?', 'human raters'),
  },
  'results-en-fr-p2': {
    factual: q(
      'How much of the previous state of the art training cost did the English-French model need?',
      'Less than a quarter of the training cost.',
      'less than a quarter',
    ),
    numeric: q('What dropout rate did the English-French big model use?', 'It used a dropout rate of 0.1 instead of 0.3.', 'dropout rate of 0.1'),
    unanswerable: u('How many GPUs trained the English-French big model in parallel?', 'in parallel'),
  },
  'parsing-p1': {
    factual: q('On which task was the Transformer tested for generalisation?', 'On English constituency parsing.', 'English constituency parsing'),
    numeric: q('How many layers did the parsing Transformer have?', 'It was a 4-layer Transformer.', '4-layer'),
    unanswerable: u('Which treebank was used to evaluate the parser?', 'treebank'),
  },
  // The model declines.
  'parsing-p2': {
    factual: { refuse: "I'm sorry, but I can't help with writing questions about this passage." },
    unanswerable: u('What F1 score did the parser reach on the test set?', 'F1 score'),
  },
}

/** Two passages asked together (multi-chunk): the first passage's question joined with the second's. */
function multi(first: PassageScript, second: PassageScript): Reply {
  if (!('json' in first.factual) || !('json' in second.factual)) return first.factual
  const a = first.factual.json
  const b = second.factual.json
  return {
    json: {
      question: `${(a['question'] as string).replace(/\?$/, '')}, and ${(b['question'] as string).charAt(0).toLowerCase()}${(b['question'] as string).slice(1)}`,
      answer: `${a['answer'] as string} ${b['answer'] as string}`,
      keyword1: a['keyword'] as string,
      keyword2: b['keyword'] as string,
    },
  }
}

/**
 * The reply to one question-writing prompt: its kind read from the reply schema it asks for, its
 * passage(s) looked up by text among `passages`.
 */
export function replyFor(prompt: string, schemaKeys: readonly string[], passages: ReadonlyArray<{ id: string; text: string }>): Reply {
  const shown = [...prompt.matchAll(/<<<PASSAGE(?: \d)? (#[0-9a-f]{8})>>>\n([\s\S]*?)\n<<<END PASSAGE(?: \d)? \1>>>/g)].map((m) => m[2] as string)
  const scripts = shown.map((text) => {
    const passage = passages.find((p) => p.text === text)
    const script = passage === undefined ? undefined : SCRIPT[passage.id]
    if (script === undefined) throw new Error(`no script for the passage ${JSON.stringify(text.slice(0, 60))}`)
    return script
  })
  const [first, second] = scripts as [PassageScript, PassageScript | undefined]
  if (second !== undefined) return multi(first, second)
  if (!schemaKeys.includes('answer')) return first.unanswerable
  if (/a number stated in the PASSAGE/.test(prompt)) return first.numeric ?? first.factual
  return first.factual
}
