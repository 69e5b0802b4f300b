"""The interface's own words, in both languages. Content text lives in the content files."""

from __future__ import annotations

from tutor.interview.present import VERDICT
from tutor.text import T

STRINGS: dict[str, T] = {
    "app.title": T("Distributed-training interview tutor", "分布式训练面试教练"),
    "home.sections": T("Sections", "模块"),
    "home.today": T("Today", "今天"),
    "home.news": T("What's new", "新内容"),
    "home.no_attempts": T("No attempts yet — start with the lesson, then practice.",
                          "还没有做题记录——先读课，再练习。"),
    "home.attempts": T("{attempts} · {accuracy} right · streak {streak}",
                       "已答 {attempts} 次 · 正确率 {accuracy} · 连续 {streak} 天"),
    "home.library": T("{lessons} lessons · {questions} questions · {labs} labs",
                      "{lessons} 课 · {questions} 道题 · {labs} 个实验"),
    "home.due": T("Reviews due: {due}", "待复习：{due}"),
    "home.last": T("Last activity: {when}", "上次练习：{when}"),
    "review.open_key": T("press v to review", "按 v 开始复习"),
    "home.store_error": T("History unavailable: {error}", "无法读取学习记录：{error}"),
    "app.content_skipped": T("{count} failed to load and are left out; run `tutor validate` to see where.",
                             "有 {count} 处内容加载失败，已略去；运行 `tutor validate` 查看在哪里。"),
    # Two lines, broken between the two sentences: one paragraph broke inside "F1: keys" at 120
    # columns (walkthrough polish 8); the second line fits the pane at 80.
    "home.hint": T("Press a section's key, or ↑↓ and Enter.\nctrl+p: every command · F1: keys · F2: 中文",
                   "按模块前的键，或 ↑↓ 加回车。\nctrl+p：全部命令 · F1：按键说明 · F2：English"),
    "progress.title": T("Progress", "进度"),
    "progress.totals": T("{attempts} · {accuracy} right · {solved}/{total} questions solved, {tried} tried · "
                         "streak {streak} · {labs}, {passed}/{lab_total} labs passed",
                         "已答 {attempts} 次 · 正确率 {accuracy} · 已解决 {solved}/{total} 题，做过 {tried} 题 · "
                         "连续 {streak} 天 · 实验运行 {labs} 次，通过 {passed}/{lab_total} 个"),
    "progress.mastery": T("now", "当前"),
    "progress.solved": T("solved", "已解决"),
    "progress.tried": T("tried", "做过"),
    "progress.review": T("Reviews: {cards}, {due} due now, next {next} · {reviews} done",
                         "复习：{cards} 张卡片，{due} 张到期，下一张 {next} · 已复习 {reviews} 次"),
    "progress.mock": T("Mock {format}: {spark} last {last}, best {best} ({n} finished)",
                       "模拟面试 {format}：{spark} 最近 {last}，最好 {best}（完成 {n} 次）"),
    "progress.no_mock": T("No mock interviews yet: press m on Home.", "还没有模拟面试：在首页按 m。"),
    "progress.section": T("Section", "章节"),
    "progress.tag": T("Tag", "标签"),
    "progress.weak": T("Weak areas: {tags} — practise these next.", "薄弱点：{tags}——接下来练这些。"),
    "progress.no_weak": T("No weak areas yet: keep practising.", "暂无薄弱点，继续练习。"),
    "lessons.contents": T("Contents", "目录"),
    "lessons.rendering": T("computing the figures…", "正在计算数字…"),
    "lessons.practice": T("**p** practise this section ({count})", "**p** 练习本节（{count} 题）"),
    "lessons.labs": T("labs: {labs}", "实验：{labs}"),
    "lessons.next": T("**n** next section · **b** previous", "**n** 下一节 · **b** 上一节"),
    "lessons.empty": T("No lessons installed.", "没有安装课程。"),
    "practice.list": T("Questions", "题目"),
    "practice.search": T("/ search (kind: tag: is:solved)", "/ 搜索（类型：标签：状态：）"),
    "practice.counts": T("{shown}/{total} · {solved} solved", "{shown}/{total} · 已解决 {solved}"),
    "practice.no_match": T("No question matches: change the search (F7 shows all).",
                           "没有符合的题目：改一下搜索（F7 显示全部）。"),
    "practice.bad_kind": T("kind:{value}? numeric, formula, config, choice, open, clarify, design",
                           "类型：{value}? 数值、公式、配置、选择、问答、澄清、设计"),
    "practice.bad_status": T("is:{value}? solved, unsolved, tried, wrong, new", "状态：{value}? 已解决、未解决、做过、做错、未做"),
    "practice.pick": T("Pick a question on the left (↑↓, Enter), or search for one (/: words, kind:numeric, "
                       "tag:memory, section:pipeline, is:unsolved). Keys: ctrl+s check · F3 hint · F4 new numbers · "
                       "F5 show answer · F6 next step · F7 all questions · F8 hide the list · Esc home.",
                       "在左边选一道题（↑↓，回车），或者搜索（/：关键词、类型：数值、标签：memory、章节：pipeline、"
                       "状态：未解决）。按键：ctrl+s 提交 · F3 提示 · F4 换一组数 · F5 看答案 · F6 下一步 · "
                       "F7 全部题 · F8 隐藏列表 · Esc 回首页。"),
    "practice.step": T("Step {index} of {total}:", "第 {index}/{total} 步："),
    "practice.variant": T("variant {seed}", "第 {seed} 组数"),
    "practice.hints": T("Hints", "提示"),
    # The verdict's heading is written once, for every front end (tutor.interview.present).
    "practice.right": VERDICT["right"],
    "practice.wrong": VERDICT["wrong"],
    "practice.partly": VERDICT["partly"],
    "practice.self_assessed": T("Self-assessed", "自评"),
    "practice.expected": T("Expected:", "答案："),
    "practice.why": T("Why:", "为什么："),
    "practice.source": T("Reference:", "出处："),
    "practice.model_answer": T("Model answer", "参考答案"),
    "practice.rubric": T("Key points", "要点"),
    "practice.derivation": T("Derivation (sizing engine)", "推导（sizing 引擎）"),
    "practice.reveal_hint": T("Try again, take a hint (F3), or see the answer (F5).",
                              "再试一次，看提示（F3），或者看答案（F5）。"),
    "practice.next_step": T("F6: next step", "F6：下一步"),
    "practice.no_more_hints": T("No more hints for this step.", "这一步没有更多提示了。"),
    "practice.not_parametric": T("This question has no other numbers.", "这道题没有其他数值组合。"),
    "practice.after_reveal": T("Not counted: the answer was shown (F5). Open another question, or new numbers (F4).",
                               "不计入记录：答案已经看过（F5）。换一道题，或者换一组数（F4）。"),
    "practice.answer_first": T("Answer first; then F5 shows the expected answer.", "先作答，再按 F5 看答案。"),
    "practice.empty": T("Type an answer first.", "请先输入答案。"),
    "practice.empty.choice": T("Tick at least one option first: Space ticks the highlighted one.",
                               "请先勾选至少一个选项：空格键勾选当前高亮的一项。"),
    # No example values: any number shown here is some variant's answer (walkthrough M1, issue 14
    # item 6; tests/grading/test_no_leaks.py checks every question x 20 seeds against these).
    "answer.numeric": T("a number and its unit: e-notation, K/M/G and h/min are read{unit}",
                        "数值加单位：科学计数法、K/M/G、万/亿、小时/分钟都能识别{unit}"),
    # A layout box holding a sign, a decimal, e-notation or a word (issue 16); no example size, as
    # above: a size shown here could be this question's answer.
    "answer.config.whole": T("{dim}: a whole number of GPUs, digits only (no sign, decimal point or e-notation).",
                             "{dim}：请填 GPU 的个数，只写整数（不带正负号、小数点或科学计数法）。"),
    "answer.unit": T(" (unit: {unit})", "（单位：{unit}）"),
    "answer.formula": T("a formula in the question's symbols, e.g. (x + 1)/N; Psi for Ψ",
                        "用题中的符号写公式，如 (x + 1)/N；Ψ 可写作 Psi"),
    # Where the long ones do not fit the answer line (beside the question list at 80 columns):
    # at most 32 cells with the longest unit (tokens/s).
    "answer.numeric.short": T("a number with its unit: {unit}", "数值加单位：{unit}"),
    "answer.numeric.plain": T("a number", "数值"),
    "answer.formula.short": T("a formula; Psi for Ψ", "公式；Ψ 写作 Psi"),
    "field.model": T("Model", "模型"),
    "field.params": T("Params (override)", "参数量（覆盖）"),
    "field.seq": T("Sequence length", "序列长度"),
    "field.micro_batch": T("Micro-batch", "micro-batch"),
    "field.global_batch": T("Global batch", "global batch"),
    "field.tokens": T("Training tokens", "训练 token 数"),
    "field.gpus": T("GPUs", "卡数"),
    "field.tp": T("TP", "TP"),
    "field.pp": T("PP", "PP"),
    "field.cp": T("CP", "CP"),
    "field.ep": T("EP", "EP"),
    "field.dp": T("DP (blank: derive)", "DP（留空自动推）"),
    "field.vpp": T("Interleave v", "interleave v"),
    "field.mfu": T("MFU (e.g. 0.4)", "MFU（如 0.4）"),
    "field.sharding": T("Opt. sharding", "optimizer 切分"),
    "field.recompute": T("Recompute", "重计算"),
    "field.sp": T("Seq. parallel", "sequence parallel"),
    "field.flash": T("FlashAttention", "FlashAttention"),
    "field.gpu": T("GPU", "GPU"),
    # At 80 columns the form gets 31 of them (issue 16: it took half the width): labels of ≤ 12 cells.
    "field.params.short": T("Params", "参数量"),
    "field.seq.short": T("Seq. length", "序列长度"),
    "field.tokens.short": T("Train tokens", "训练 token"),
    "field.dp.short": T("DP (auto)", "DP（自动）"),
    "field.mfu.short": T("MFU (0–1)", "MFU(0–1)"),
    "field.sharding.short": T("Opt. shard", "ZeRO 切分"),
    "field.sp.short": T("SP", "SP"),
    "field.flash.short": T("FlashAttn", "FlashAttn"),
    "playground.scenario": T("Open a worked example…", "打开课程里的例子…"),
    "playground.memory": T("Memory per GPU", "每卡显存"),
    "playground.weights": T("weights", "weight"),
    "playground.grads": T("grads", "gradient"),
    "playground.optimizer": T("optimizer", "optimizer"),
    "playground.activations": T("activations", "activation"),
    "playground.total": T("total", "合计"),
    "playground.fits": T("fits", "放得下"),
    "playground.over": T("does NOT fit", "放不下"),
    "playground.pipeline": T("Pipeline", "Pipeline"),
    "playground.ranks": T("Ranks", "Rank 分布"),
    "playground.checks": T("Checks", "检查"),
    "playground.derivation": T("Derivation", "推导"),
    "playground.no_pipeline": T("PP = 1: no pipeline, no bubble.", "PP = 1：没有 pipeline，也就没有 bubble。"),
    "playground.too_long": T("{passes} passes are too many to draw; the bubble is on the Checks and Derivation tabs.",
                             "一共 {passes} 次前后向，太多画不下；bubble 见「检查」和「推导」。"),
    "playground.bubble": T("{kind}: p = {p}, m = {m}, v = {v} · bubble {ideal} of the ideal step ({wall} of the "
                           "wall clock; engine {engine})",
                           "{kind}：p = {p}，m = {m}，v = {v} · bubble 占理想 step 的 {ideal}（占墙钟时间 {wall}；"
                           "引擎算得 {engine}）"),
    "playground.legend": T("F4 changes the schedule · blue forward, green backward, red idle",
                           "F4 切换调度 · 蓝色 forward，绿色 backward，红色空等"),
    "playground.ranks_by": T("Colored by {dimension} (F3 changes it); order [TP, CP, PP, DP], TP innermost",
                             "按 {dimension} 着色（F3 切换）；排列顺序 [TP, CP, PP, DP]，TP 在最内层"),
    "playground.bad_m": T("m = {m} micro-batches per pipeline: the global batch must be a whole multiple of "
                          "DP × micro-batch.", "每条 pipeline 的 micro-batch 数 m = {m}：global batch 必须是 "
                          "DP × micro-batch 的整数倍。"),
    "playground.auto_value": T("auto: {value}", "自动：{value}"),
    "playground.no_speed": T("Step time, MFU and training days: fill in MFU and training tokens.",
                             "step 时间、MFU 和训练天数：请填上 MFU 和训练 token 数。"),
    "playground.speed": T("{tokens} · step {step} · MFU {mfu}", "{tokens} · 每 step {step} · MFU {mfu}"),
    "playground.days": T("{days} of training", "训练 {days}"),
    "playground.bubble_line": T("Pipeline bubble: {bubble} of the ideal step.", "pipeline bubble：占理想 step 的 {bubble}。"),
    "playground.traffic": T("Traffic per dimension (engine)", "各维度通信量（引擎）"),
    "playground.traffic_dp": T("DP: {size} of gradients per GPU per step", "DP：每卡每 step 同步梯度 {size}"),
    "playground.traffic_tp": T("TP: {size} per layer per micro-batch", "TP：每层每个 micro-batch {size}"),
    "playground.traffic_pp": T("PP: {size} per micro-batch between stages", "PP：相邻 stage 之间每个 micro-batch {size}"),
    "playground.traffic_cp": T("CP: {size} per layer per micro-batch", "CP：每层每个 micro-batch {size}"),
    "playground.fallback": T("Interleaved needs v > 1 and m divisible by p (v = {v}, m = {m}, p = {p}): "
                             "showing 1f1b.", "interleaved 需要 v > 1 且 m 能被 p 整除（v = {v}，m = {m}，p = {p}）："
                             "这里画的是 1f1b。"),
    "playground.auto": T("Schedule auto → {kind} (F4: gpipe, 1f1b, interleaved)",
                         "调度 auto → {kind}（F4 切换：gpipe、1f1b、interleaved）"),
    "playground.compressed": T("Compressed: each column is {slots} time slots (a forward pass 1, a backward 2). "
                               "Purple: forward and backward alternating; █ busy, ▓ half busy or more, ▒ less, "
                               "░ idle.",
                               "已压缩：每一列代表 {slots} 个时间格（一次 forward 占 1 格，backward 占 2 格）。"
                               "紫色：forward 与 backward 交替；█ 一直在忙，▓ 至少一半在忙，▒ 不到一半，░ 空等。"),
    "playground.stage_first": T("Per GPU of the first pipeline stage, the fullest: {params} parameters, "
                                "embedding included.",
                                "按最满的第一个 pipeline stage 计：每卡 {params} 参数（含 embedding）。"),
    "playground.stage_even": T("Per GPU from the even split Ψ/(TP·PP) = {params} parameters (Ψ is given, not "
                               "counted); the first stage holds {first} with the embedding (Derivation tab).",
                               "按平均切分 Ψ/(TP·PP) = 每卡 {params} 参数计（Ψ 是给定的，不是按结构数出来的）；"
                               "含 embedding 的第一个 stage 有 {first}（见「推导」）。"),
    "playground.no_ep": T("EP = 1: every rank holds every expert (set EP for a mixture of experts).",
                          "EP = 1：每张卡都放全部 expert（MoE 模型请填 EP）。"),
    "playground.bad_ep": T("EP {ep} does not divide DP × CP = {dpcp}: the expert groups fold onto those ranks.",
                           "EP {ep} 不能整除 DP × CP = {dpcp}：expert 组就是折叠在这些卡上的。"),
    "playground.ep_folding": T("EP {ep} folded onto DP × CP (MoE folding): one color = one expert shard; the same "
                               "experts repeat on every replica.",
                               "EP {ep} 折叠在 DP × CP 上（MoE folding）：同一种颜色 = 同一份 expert；每个副本上重复。"),
    "playground.all_good": T("No problems: the layout is valid and fits.", "没有问题：配置合法，放得下。"),
    "lessons.no_scenario": T("This section has no worked example to open.", "这一节没有可以打开的例子。"),
    "error.title": T("Something went wrong", "出错了"),
    "error.caught": T("{error} — the screen is still usable; details in {path}",
                      "{error}——界面仍可继续使用；详情见 {path}"),
    "quit.confirm": T("{what} is in progress. Quit anyway?", "{what}正在进行。仍要退出吗？"),
    "quit.yes": T("Quit (y)", "退出（y）"),
    "quit.no": T("Stay (n)", "留下（n）"),
    "kind.numeric": T("numeric", "数值"),
    "kind.formula": T("formula", "公式"),
    "kind.config": T("config", "配置"),
    "kind.choice": T("choice", "选择"),
    "kind.open": T("open", "问答"),
    "kind.clarify": T("clarify", "澄清"),
    "kind.design": T("design", "设计"),
    "command.placeholder": T("Search for commands…", "搜索命令…"),
    "command.lang": T("Switch language (English / 中文)", "切换语言（English / 中文）"),
    "command.home": T("Go to the home screen", "回到首页"),
    "command.section": T("Open {section}", "打开{section}"),
}

SECTIONS: list[dict] = [
    {"id": "lessons", "key": "l", "name": T("Lessons", "课程"),
     "hint": T("the lesson, every number computed live", "读课；所有数字都由引擎实时计算")},
    {"id": "practice", "key": "p", "name": T("Practice", "练习"),
     "hint": T("questions checked by the sizing engine", "面试题，答案由 sizing 引擎核对")},
    {"id": "playground", "key": "g", "name": T("Playground", "沙盘"),
     "hint": T("change TP/PP/CP/DP; watch memory, bubble", "调 TP/PP/CP/DP，看显存和 bubble 的变化")},
    {"id": "labs", "key": "b", "name": T("Labs", "实验"),
     "hint": T("real torch.distributed hangs, slowdowns", "真实的 torch.distributed 任务：查 hang、查慢")},
    {"id": "mock", "key": "m", "name": T("Mock interview", "模拟面试"),
     "hint": T("timed pitch, system design, debugging", "限时：30 秒陈述、系统设计、排障")},
    {"id": "progress", "key": "r", "name": T("Progress", "进度"),
     "hint": T("mastery per section, streak, weak areas", "各节掌握度、连续天数、薄弱点")},
]


REVIEW_ROW: dict = {"id": "review", "key": "v", "name": T("Review", "复习"),
                    "hint": T("what you missed, back when it is due", "答错的题，到期再练，每次换数")}
"""Home's row for Review: a screen pushed over Home (its key is Home's `v`), not a mode of SECTIONS."""


def plural(count: int, one: str, many: str, lang: str) -> str:
    """English "1 attempt" / "2 attempts"; in Chinese the template carries the measure word, so the
    bare number (walkthrough polish 1 and 2: "1 attempts", "1 questions", "day(s)")."""
    if lang == "zh":
        return str(count)
    return f"{count} {one if count == 1 else many}"


def when(stamp: str | None, lang: str) -> str:
    """An ISO timestamp as a learner reads it: "2026-12-01 08:09 UTC" (not "…T08:09:47+00:00");
    the same in both languages, and the same as the CLI's (interview.clock.stamp_text)."""
    from tutor.interview.clock import stamp_text

    return stamp_text(stamp)


def register(strings: dict[str, T]) -> None:
    """Add a screen's own strings (kept in its module), refusing keys that already exist."""
    clash = set(strings) & set(STRINGS)
    if clash:
        raise ValueError(f"interface strings defined twice: {', '.join(sorted(clash))}")
    STRINGS.update(strings)


def text(key: str, lang: str, **values: object) -> str:
    return STRINGS[key].format(lang, **values)
