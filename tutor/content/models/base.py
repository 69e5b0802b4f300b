"""What every content model shares: the frozen base, bilingual `Text`, typed scalars."""

from __future__ import annotations

import re
from typing import Annotated, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, StringConstraints

from tutor.units import as_number, parse_count


def _to_number(value: object) -> object:
    # PyYAML reads `70e9` (no dot) as a string, so authors may write numbers as strings
    # and with suffixes (`70B`); anything else is left for pydantic to reject.
    if isinstance(value, str):
        return parse_count(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return as_number(value)
    return value


Number = Annotated[Union[int, float], BeforeValidator(_to_number)]
Ident = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64)]
FormulaName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
NonEmpty = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]
LANGS: tuple[Literal["en"], Literal["zh"]] = ("en", "zh")
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


class ContentModel(BaseModel):
    """Every content model: frozen, unknown keys refused. The field docstrings are the authors'
    reference (docs/content-format.md); they are not copied into the schema, because reading
    them (use_attribute_docstrings) parses every model's source and cost `tutor check` ~0.1 s,
    and nothing reads the descriptions. Schemas are built on first use (defer_build), so a
    command that validates one question builds only the models it touches."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Text(ContentModel):
    """A learner-facing text in both languages, as authors write it in YAML (validated, with its
    line for error messages). Strings written in the code are `tutor.text.T`, which reads the same
    way (`.en`, `.zh`, `.get(lang)`)."""

    en: NonEmpty
    """English text."""
    zh: NonEmpty
    """Chinese text."""

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en
