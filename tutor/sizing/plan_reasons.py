"""`why_after()`: in words, the rule of the recipe's order by which an alternative ranks after the best."""

from __future__ import annotations

from tutor.sizing.plan_candidate import RECOMPUTE_RANK, SHARDING_RANK, Candidate
from tutor.text import T

SHARDING_NAMES = {"none": T("no sharding", "不切分"), "zero1": T("ZeRO-1", "ZeRO-1"),
                  "distopt": T("the distributed optimizer", "distributed optimizer"), "zero2": T("ZeRO-2", "ZeRO-2"),
                  "zero3": T("ZeRO-3", "ZeRO-3")}


def why_after(best: Candidate, other: Candidate, lang: str = "en") -> str:
    """In words, the first rule of the recipe's order by which `other` ranks after `best`."""
    return _reason(best, other).get(lang)


def _reason(best: Candidate, other: Candidate) -> T:
    shown = f"TP {best.tp} PP {best.pp} CP {best.cp}" + (f" EP {best.ep}" if best.ep > 1 else "")
    if other.below_4p and not best.below_4p:
        return T(f"m = {other.microbatches} is below 4p = {4 * other.pp}, a larger bubble; {shown} keeps m ≥ 4p",
                 f"m = {other.microbatches} < 4p = {4 * other.pp}: 气泡更大；{shown} 做到了 m ≥ 4p")
    if RECOMPUTE_RANK[other.recompute] > RECOMPUTE_RANK[best.recompute]:
        evaluator = other._evaluated()
        lighter = evaluator.lighter_total(other, best.recompute)
        budget_gb = evaluator.limit / 1e9
        how = T("without recompute", "不重算") if best.recompute == "none" else \
            T(f"with {best.recompute} recompute", f"用 {best.recompute} recompute")
        need = T("", "") if lighter is None else \
            T(f" ({how.en} its fullest stage needs {lighter / 1e9:.1f} GB of the {budget_gb:.1f} GB budget)",
              f"：{how.zh}最满的 stage 要 {lighter / 1e9:.1f} GB，预算只有 {budget_gb:.1f} GB")
        return T(f"fits only with {other.recompute} recompute{need.en}, an extra forward; {shown} fits with "
                 f"{best.recompute}",
                 f"要 {other.recompute} recompute 才放得下{need.zh}（多算一遍 forward）；{shown} 不用")
    if other.uneven and not best.uneven:
        return T(f"PP {other.pp} splits the layers unevenly, the fullest stage sets the pace; {shown} splits evenly",
                 f"PP {other.pp} 分不匀层，最满的 stage 决定速度；{shown} 分得匀")
    if other.cp_across_nodes > best.cp_across_nodes:
        return T(f"CP {other.cp} spans nodes (TP × CP = {other.tp * other.cp} > {other.node}): its K/V exchange in "
                 f"every layer crosses the slow network; {shown} fits with less CP across nodes",
                 f"CP {other.cp} 跨机（TP × CP = {other.tp * other.cp} > {other.node}）：每层的 K/V 交换走慢网络；"
                 f"{shown} 用更多 PP 就放得下")
    if SHARDING_RANK[other.sharding] > SHARDING_RANK[best.sharding]:
        mine, theirs = SHARDING_NAMES[other.sharding], SHARDING_NAMES[best.sharding]
        return T(f"fits only with {mine.en} (gradients reduce-scattered over DP after every micro-batch); {shown} "
                 f"fits with {theirs.en}",
                 f"要 {mine.zh} 才放得下（每个 micro-batch 之后都要沿 DP reduce-scatter gradient）;{shown} 用 "
                 f"{theirs.zh} 就放得下")
    order = (("pp", "PP"), ("tp", "TP"))
    for name, label in (*order, ("cp", "CP"), ("ep", "EP")):
        size, theirs_size = getattr(other, name), getattr(best, name)
        if size > theirs_size:
            return T(f"{label} {size} is more than needed: {shown} fits with {label} {theirs_size}, less traffic",
                     f"{label} {size} 比需要的大：{shown} 用 {label} {theirs_size} 就放得下，通信更少")
        if size < theirs_size:
            first, second = order[0][1], order[1][1]
            return T(f"{shown} ranks first on an earlier rule of the recipe order (smaller {first}, then {second}, "
                     "CP, EP)", f"{shown} 按配方顺序（先小 {first}，再 {second}、CP、EP）排在前面")
    if other.bubble > best.bubble:
        return T(f"a larger bubble, {other.bubble:.1%} against {best.bubble:.1%}",
                 f"bubble {other.bubble:.1%} 大于 {best.bubble:.1%}")
    return T(f"less memory headroom ({other.headroom:.0%} against {best.headroom:.0%})", "余量更小")
