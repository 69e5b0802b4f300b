"""`T`, the one bilingual text type for strings written in code: `T("✓ Right", "✓ 正确")`.

Every learner-facing string exists in English and Chinese. Content written in YAML arrives as
`tutor.content.models.base.Text` (validated, with its line for error messages), which reads the
same way (`.en`, `.zh`, `.get(lang)`); strings written in the code are `T`s, kept in one table
per module (`LABELS`, `VERDICT`, ...), so that a translator can read every Chinese string of
a module in one place, and `grep -rn 'T("' tutor` finds them all.

A `NamedTuple` on purpose: it is still the `(en, zh)` pair that tables across the code were
written as, so `en, zh = pair` and `pair[lang == "zh"]` keep working while the callers move to
`pair.get(lang)` one module at a time.
"""

from __future__ import annotations

from typing import NamedTuple


class T(NamedTuple):
    """A text in English and Chinese; `{name}` placeholders are filled by `format`."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def format(self, lang: str, **values: object) -> str:
        """The text in `lang` with its placeholders filled (no values: as it is, braces and all);
        a value that is itself a `T` is put in its `lang` side."""
        text = self.get(lang)
        return text.format(**_side(values, lang)) if values else text

    def filled(self, **values: object) -> T:
        """Both languages with their placeholders filled (a value that is a `T` on its own side):
        a message made before the language it is shown in is known (an error raised here and
        printed by the CLI), for a caller to pick from."""
        return T(self.format("en", **values), self.format("zh", **values))

    def to_json(self) -> dict[str, str]:
        """`{"en": …, "zh": …}`, as reports and `--json` output carry both languages."""
        return {"en": self.en, "zh": self.zh}


def _side(values: dict[str, object], lang: str) -> dict[str, object]:
    return {name: value.get(lang) if isinstance(value, T) else value for name, value in values.items()}


def a_or_an(word: str) -> str:
    """The English article for `word` as it is said: "an 8192-token sequence", "an 80.0 GB GPU",
    "an 11 B model", "a 1,024-GPU job" (walkthrough polish 2: "a 80.0 GB h100-80gb"). A number
    is said by its leading group of thousands: 8…, 11 and 18 begin with a vowel sound."""
    digits = ""
    for char in word:
        if char.isdigit():
            digits += char
        elif char != "," or not digits:
            break
    if not digits:
        return "an" if word[:1].lower() in ("a", "e", "i", "o") else "a"
    lead = digits[: len(digits) % 3 or 3]
    return "an" if lead.startswith("8") or lead in ("11", "18") else "a"
