"""The interface's own words, in both languages. Content text lives in the content files."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    "app.title": ("Distributed-training interview tutor", "分布式训练面试教练"),
    "home.sections": ("Sections", "模块"),
    "home.today": ("Today", "今天"),
    "home.news": ("What's new", "新内容"),
    "home.no_attempts": ("No attempts yet — start with the lesson, then practice.",
                         "还没有做题记录——先读课,再练习。"),
    "home.attempts": ("{attempts} attempts · {accuracy} right · streak {streak} day(s)",
                      "已答 {attempts} 次 · 正确率 {accuracy} · 连续 {streak} 天"),
    "home.library": ("{lessons} lessons · {questions} questions · {labs} labs",
                     "{lessons} 课 · {questions} 道题 · {labs} 个实验"),
    "home.due": ("Reviews due: {due}", "待复习:{due}"),
    "home.last": ("Last activity: {when}", "上次练习:{when}"),
    "home.store_error": ("History unavailable: {error}", "无法读取学习记录:{error}"),
    "home.hint": ("Press a section's key, or ↑↓ and Enter. ctrl+p: every command · F1: keys · F2: 中文",
                  "按模块前的键,或 ↑↓ 加回车。ctrl+p:全部命令 · F1:按键说明 · F2:English"),
    "home.not_yet": ("{section} is not in this version yet. Meanwhile: {cli}",
                     "本版本还没有「{section}」界面。可先用命令行:{cli}"),
    "progress.title": ("Progress", "进度"),
    "progress.totals": ("{attempts} attempts · {accuracy} right · {tried}/{total} questions tried · "
                        "streak {streak} day(s) · {labs} lab runs",
                        "已答 {attempts} 次 · 正确率 {accuracy} · 做过 {tried}/{total} 题 · 连续 {streak} 天 · "
                        "实验 {labs} 次"),
    "progress.section": ("Section", "章节"),
    "progress.tag": ("Tag", "标签"),
    "progress.weak": ("Weak areas: {tags} — practise these next.", "薄弱点:{tags}——接下来练这些。"),
    "progress.no_weak": ("No weak areas yet: keep practising.", "暂无薄弱点,继续练习。"),
    "lessons.contents": ("Contents", "目录"),
    "lessons.rendering": ("computing the figures…", "正在计算数字…"),
    "lessons.practice": ("**p** practise this section ({count} questions)", "**p** 练习本节({count} 题)"),
    "lessons.labs": ("labs: {labs}", "实验:{labs}"),
    "lessons.next": ("**n** next section · **b** previous", "**n** 下一节 · **b** 上一节"),
    "lessons.empty": ("No lessons installed.", "没有安装课程。"),
    "practice.list": ("Questions", "题目"),
    "practice.pick": ("Pick a question on the left (↑↓, Enter). Keys: ctrl+s check · F3 hint · F4 new numbers · "
                      "F5 show answer · F6 next step · Esc home.",
                      "在左边选一道题(↑↓,回车)。按键:ctrl+s 提交 · F3 提示 · F4 换一组数 · F5 看答案 · "
                      "F6 下一步 · Esc 回首页。"),
    "practice.step": ("Step {index} of {total}:", "第 {index}/{total} 步:"),
    "practice.variant": ("variant {seed}", "第 {seed} 组数"),
    "practice.hints": ("Hints", "提示"),
    "practice.right": ("✓ Right", "✓ 正确"),
    "practice.wrong": ("✗ Not right", "✗ 不对"),
    "practice.partly": ("◐ Partly right ({score})", "◐ 部分正确({score})"),
    "practice.self_assessed": ("Self-assessed", "自评"),
    "practice.expected": ("Expected:", "答案:"),
    "practice.why": ("Why:", "为什么:"),
    "practice.model_answer": ("Model answer", "参考答案"),
    "practice.rubric": ("Key points", "要点"),
    "practice.derivation": ("Derivation (sizing engine)", "推导(sizing 引擎)"),
    "practice.reveal_hint": ("Try again, take a hint (F3), or see the answer (F5).",
                             "再试一次,看提示(F3),或者看答案(F5)。"),
    "practice.next_step": ("F6: next step", "F6:下一步"),
    "practice.no_more_hints": ("No more hints for this step.", "这一步没有更多提示了。"),
    "practice.not_parametric": ("This question has no other numbers.", "这道题没有其他数值组合。"),
    "practice.answer_first": ("Answer first; then F5 shows the expected answer.", "先作答,再按 F5 看答案。"),
    "practice.empty": ("Type an answer first.", "请先输入答案。"),
    "answer.numeric": ("a number with its unit, e.g. 39 GB, 2.8 h, 54万 tokens/s (unit: {unit})",
                       "带单位的数,如 39 GB、2.8 小时、54万 tokens/s(单位:{unit})"),
    "answer.formula": ("a formula, e.g. 6*Psi + 12*Psi/N (Ψ or Psi)", "公式,如 6*Psi + 12*Psi/N(Ψ 或 Psi)"),
    "command.lang": ("Switch language (English / 中文)", "切换语言(English / 中文)"),
    "command.home": ("Go to the home screen", "回到首页"),
    "command.section": ("Open {section}", "打开{section}"),
}

SECTIONS: list[dict] = [
    {"id": "lessons", "key": "l", "name": ("Lessons", "课程"),
     "hint": ("read the lesson; every number computed live", "读课;所有数字都由引擎实时计算"),
     "cli": "tutor lessons"},
    {"id": "practice", "key": "p", "name": ("Practice", "练习"),
     "hint": ("interview questions, checked by the sizing engine", "面试题,答案由 sizing 引擎核对"),
     "cli": "tutor questions"},
    {"id": "playground", "key": "g", "name": ("Playground", "沙盘"),
     "hint": ("change TP/PP/CP/DP and watch memory and bubble", "调 TP/PP/CP/DP,看显存和 bubble 的变化"),
     "cli": "tutor size --help"},
    {"id": "labs", "key": "b", "name": ("Labs", "实验"),
     "hint": ("real torch.distributed jobs: hangs and slowdowns to fix", "真实的 torch.distributed 任务:查 hang、查慢"),
     "cli": "tutor --help"},
    {"id": "mock", "key": "m", "name": ("Mock interview", "模拟面试"),
     "hint": ("timed: 30-second pitch, system design, debugging", "限时:30 秒陈述、系统设计、排障"),
     "cli": "tutor --help"},
    {"id": "progress", "key": "r", "name": ("Progress", "进度"),
     "hint": ("mastery per section, streak, weak areas", "各节掌握度、连续天数、薄弱点"),
     "cli": "tutor progress"},
]


def text(key: str, lang: str, **values: object) -> str:
    en, zh = STRINGS[key]
    template = zh if lang == "zh" else en
    return template.format(**values) if values else template


def pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "zh" else pair[0]
