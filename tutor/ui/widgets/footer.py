"""The footer in the app's language: Textual's Footer shows each binding's English description;
this one shows the Chinese words in Chinese mode and is redrawn when the language changes."""

from __future__ import annotations

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tutor.ui.guard import Guarded, callback

ZH = {"Quit": "退出", "Keys": "按键", "EN/中文": "English", "Home": "首页", "palette": "命令",
      "Next": "下一节", "Prev": "上一节", "Practise": "练本节", "Playground": "沙盘",
      "Contents": "目录", "Check": "提交", "Hint": "提示", "New numbers": "换数", "Show answer": "看答案",
      "Next step": "下一步", "All questions": "全部题", "Color ranks by": "着色", "Schedule": "调度",
      "Start": "开始", "Run": "运行", "Stop": "停止", "Submit": "提交", "Strict/practice": "严格/练习",
      "Lesson": "课文", "Next question": "下一题", "Export report": "导出", "End interview": "结束面试",
      "Back": "返回", "Next item": "下一张", "Reload": "刷新", "Resume": "继续", "Abandon": "放弃",
      "Later": "以后", "List": "列表", "Search": "搜索", "Form": "表单", "Check lab": "检查", "Vary data": "换数据", "Vary ranks": "换 rank 数", "Next field": "下一个输入框",
      "Previous field": "上一个输入框", "Review what is due": "复习", "Watch": "监视", "Next lab": "下个实验"}
"""Chinese for every binding description shown in a footer (a test checks none is missing)."""


class TutorFooter(Footer, metaclass=Guarded):
    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("compact", True)  # one cell between keys: the keys of a screen fit at 80 columns
        kwargs.setdefault("show_command_palette", False)  # ctrl+p is named on Home; sections need the room
        super().__init__(**kwargs)

    def compose(self):
        zh = getattr(self.app, "lang", "en") == "zh"
        for widget in super().compose():
            if zh and isinstance(widget, FooterKey):
                widget.description = ZH.get(widget.description, widget.description)
            yield widget

    _shown: tuple | None = None
    """What the footer was last composed from (language and shown bindings)."""

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._relabel, init=False)

    def bindings_changed(self, screen) -> None:
        """Textual recomposes the footer on every change of the active bindings: each focus move
        (a Tab, a click) rebuilt every key, restyling each, though the keys shown stay the same.
        Recomposed only when what it shows changes (profiled: ~5% of the monkey test's time)."""
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        shown = (getattr(self.app, "lang", "en"),
                 tuple((key, active.binding.description, active.binding.action, active.enabled, active.tooltip)
                       for key, active in screen.active_bindings.items() if active.binding.show))
        if shown != self._shown:
            self._shown = shown
            self.call_after_refresh(self.recompose)

    @callback
    def _relabel(self, lang: str) -> None:
        self._shown = None
        self.call_after_refresh(self.recompose)
