"""`why_after()`: in words, the rule of the recipe's order by which an alternative ranks after the best."""

from __future__ import annotations

from tutor.sizing.plan_candidate import RECOMPUTE_RANK, SHARDING_RANK, Candidate

SHARDING_NAMES = {"none": ("no sharding", "不切分"), "zero1": ("ZeRO-1", "ZeRO-1"),
                  "distopt": ("the distributed optimizer", "distributed optimizer"), "zero2": ("ZeRO-2", "ZeRO-2"),
                  "zero3": ("ZeRO-3", "ZeRO-3")}


def why_after(best: Candidate, other: Candidate, lang: str = "en") -> str:
    """In words, the first rule of the recipe's order by which `other` ranks after `best`."""
    zh = lang == "zh"
    shown = f"TP {best.tp} PP {best.pp} CP {best.cp}" + (f" EP {best.ep}" if best.ep > 1 else "")
    if other.below_4p and not best.below_4p:
        return (f"m = {other.microbatches} < 4p = {4 * other.pp}: 气泡更大；{shown} 做到了 m ≥ 4p" if zh else
                f"m = {other.microbatches} is below 4p = {4 * other.pp}, a larger bubble; {shown} keeps m ≥ 4p")
    if RECOMPUTE_RANK[other.recompute] > RECOMPUTE_RANK[best.recompute]:
        evaluator = other._evaluated()
        lighter = evaluator.lighter_total(other, best.recompute)
        budget_gb = evaluator.limit / 1e9
        if zh:
            how = "不重算" if best.recompute == "none" else f"用 {best.recompute} recompute"
            need = "" if lighter is None else f"：{how}最满的 stage 要 {lighter / 1e9:.1f} GB，预算只有 {budget_gb:.1f} GB"
            return f"要 {other.recompute} recompute 才放得下{need}（多算一遍 forward）；{shown} 不用"
        how = "without recompute" if best.recompute == "none" else f"with {best.recompute} recompute"
        need = "" if lighter is None else f" ({how} its fullest stage needs {lighter / 1e9:.1f} GB of the " \
                                          f"{budget_gb:.1f} GB budget)"
        return (f"fits only with {other.recompute} recompute{need}, an extra forward; {shown} fits with "
                f"{best.recompute}")
    if other.uneven and not best.uneven:
        return (f"PP {other.pp} 分不匀层，最满的 stage 决定速度；{shown} 分得匀" if zh else
                f"PP {other.pp} splits the layers unevenly, the fullest stage sets the pace; {shown} splits evenly")
    if other.cp_across_nodes > best.cp_across_nodes:
        return (f"CP {other.cp} 跨机（TP × CP = {other.tp * other.cp} > {other.node}）：每层的 K/V 交换走慢网络；"
                f"{shown} 用更多 PP 就放得下" if zh else
                f"CP {other.cp} spans nodes (TP × CP = {other.tp * other.cp} > {other.node}): its K/V exchange in every "
                f"layer crosses the slow network; {shown} fits with less CP across nodes")
    if SHARDING_RANK[other.sharding] > SHARDING_RANK[best.sharding]:
        mine, theirs = SHARDING_NAMES[other.sharding][zh], SHARDING_NAMES[best.sharding][zh]
        return (f"要 {mine} 才放得下（每个 micro-batch 之后都要沿 DP reduce-scatter gradient）;{shown} 用 {theirs} "
                "就放得下" if zh else f"fits only with {mine} (gradients reduce-scattered over DP after every "
                f"micro-batch); {shown} fits with {theirs}")
    order = (("pp", "PP"), ("tp", "TP"))
    for name, label in (*order, ("cp", "CP"), ("ep", "EP")):
        mine, theirs = getattr(other, name), getattr(best, name)
        if mine > theirs:
            return (f"{label} {mine} 比需要的大：{shown} 用 {label} {theirs} 就放得下，通信更少" if zh else
                    f"{label} {mine} is more than needed: {shown} fits with {label} {theirs}, less traffic")
        if mine < theirs:
            first, second = order[0][1], order[1][1]
            return (f"{shown} 按配方顺序（先小 {first}，再 {second}、CP、EP）排在前面" if zh else
                    f"{shown} ranks first on an earlier rule of the recipe order (smaller {first}, then {second}, "
                    "CP, EP)")
    if other.bubble > best.bubble:
        return (f"bubble {other.bubble:.1%} 大于 {best.bubble:.1%}" if zh else
                f"a larger bubble, {other.bubble:.1%} against {best.bubble:.1%}")
    return ("余量更小" if zh else f"less memory headroom ({other.headroom:.0%} against {best.headroom:.0%})")
