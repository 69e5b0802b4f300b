"""Free text read as statements: clauses, their polarity, and the claims they make.

A rubric point is a claim (`KeyPoint`): a phrase that states it whole ("once per step"), or
concepts that must be said together in one clause ([TP] with [inside the node]). Reading an
answer:

1. It is cut into clauses at sentence punctuation and at the conjunctions that start a new
   statement (because, so, but, while, 因为, 所以, 但 …), and each clause into fragments at
   commas and dashes.
2. A fragment is *negated* when it holds an odd number of negation cues (not, n't, never, no,
   without, 不, 没, 别, 无需, 并非 …) outside the phrases matched in it: a phrase that carries its
   own negation ("not overlapped") keeps its meaning. A negated claim is its opposite; a
   negated contradiction ("TP 不要跨节点") states the claim. A subject written once is read with
   each fragment it governs: a label before a colon ("Latency: 2(n-1) hops, grows with n"), a
   longer head before one ("TP needs the fastest links: inside the node"), the words before a
   bracket ("2 (fwd)"); those readings count for claims, never for contradictions.
3. A clause that is only a run of terms (six or more words, almost no function words, no
   question mark) states nothing: "checkpoint async sharded Young MTBF" earns no point. A list
   under a head ("What to save: weights, Adam state, RNG", "Save weights, Adam state, RNG")
   states a point only when half its items make it with the head (a run of buzzwords names a
   different point in each item).
4. A clause copied from the question states nothing either.

Chinese is segmented with jieba (a maintained segmenter; loaded on the first Chinese answer)
to count words and to tell 不 as a negation from 不同 or 差不多. Latin and CJK runs are spaced
apart first, so `卡在all_gather里` matches `all gather` as a whole word. Nothing here evaluates
the text; it is only searched.

The reader in modules: `folding` (text into words), `boundaries` (where clauses and fragments
end), `negation` (cues and their reach), `model` (fragments, clauses, a reading), `term_lists`
(a run of terms states nothing), `asking` (questions and the question pasted back), `clauses`
(`read`), `matching` (`stated`, `polarity`) and `points` (`judge`). Like `tutor.grading`, this
package holds only its docstring: every name is imported from the module that defines it.
"""
