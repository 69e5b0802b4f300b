"""Plain, frozen records of a validated question, for `tutor check` without pydantic (issue 18).

Importing pydantic and defining the content models is about 0.2 s of CPU, most of a numeric
`tutor check` once the question comes from the content index (tutor.content.index). The index is
written only from models that pydantic validated (the full load, `tutor validate`); a hit is
rebuilt here into records with the same attribute names, the same `Text.get`, `Question.kind`
and `model_dump()`, so the graders read them as they read the models. Nothing here validates
content: the models and `tutor validate` do, and the key of the index (the bytes of every content
file and of this module and the models) keeps a record from outliving the files it came from.

Written by hand rather than with dataclasses: the classes are made from the index's class names
(any other name is refused) and must not cost the import time the records exist to save.
"""

from __future__ import annotations

# The fields of each question model, in the models' order (tests/content/test_records.py checks this
# table against the pydantic models, so a field added there cannot be missing here).
_HINTED = ("id", "prompt", "hints", "explain", "weight")
FIELDS: dict[str, tuple[str, ...]] = {
    "Question": ("id", "title", "prompt", "section", "tags", "source", "difficulty", "given", "vary", "derive",
                 "steps"),
    "Text": ("en", "zh"),
    "Vary": ("choices", "min", "max", "step"),
    "Derived": ("formula", "inputs"),
    "Hinted": _HINTED,
    "Mistake": ("id", "formula", "inputs", "feedback"),
    "NumericAnswer": ("formula", "inputs", "unit", "tolerance", "digits", "band"),
    "NumericStep": _HINTED + ("kind", "answer", "mistakes"),
    "FormulaStep": _HINTED + ("kind", "formula", "symbols", "mistakes"),
    "ConfigStep": _HINTED + ("kind", "inputs", "require"),
    "Choice": ("id", "text", "correct", "why"),
    "ChoiceStep": _HINTED + ("kind", "options", "multiple"),
    "Phrases": ("en", "zh"),
    "Contradiction": ("id", "concepts", "feedback", "fix", "rivals"),
    "KeyPoint": ("id", "text", "phrases", "claims", "rivals", "said_of", "contradicts", "weight", "required", "asked"),
    "OpenStep": _HINTED + ("kind", "points", "model_answer", "pass_score"),
    "ClarifyStep": _HINTED + ("kind", "points", "model_answer", "pass_score"),
}


class Record:
    """One model's fields, read-only. `model_fields_set` is what the author wrote (the rest are
    defaults), as on the model."""

    __slots__ = ("_values", "model_fields_set")

    def __init__(self, values: dict, fields_set: frozenset[str] = frozenset()) -> None:
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "model_fields_set", set(fields_set))

    def __getattr__(self, name: str):
        try:
            return object.__getattribute__(self, "_values")[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__!r} record has no field {name!r}") from None

    def __setattr__(self, name: str, value) -> None:
        raise TypeError(f"a {type(self).__name__} record is frozen")

    def __delattr__(self, name: str) -> None:
        raise TypeError(f"a {type(self).__name__} record is frozen")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._values == self._values

    __hash__ = None  # type: ignore[assignment]  # lists inside, as in the models

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"

    def model_dump(self) -> dict:
        """The fields as plain data, as the model's `model_dump()` gives them."""
        return {name: _dump(value) for name, value in self._values.items()}


class Text(Record):
    __slots__ = ()

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


class Question(Record):
    __slots__ = ()

    @property
    def kind(self) -> str:
        return self.steps[0].kind if len(self.steps) == 1 else "design"


def _dump(value):
    if isinstance(value, Record):
        return value.model_dump()
    if isinstance(value, list):
        return [_dump(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_dump(item) for item in value)
    if isinstance(value, dict):
        return {name: _dump(item) for name, item in value.items()}
    return value


_SPECIAL = {"Text": Text, "Question": Question}
CLASSES: dict[str, type[Record]] = {name: _SPECIAL.get(name) or type(name, (Record,), {"__slots__": ()})
                                    for name in FIELDS}


def record(class_name: str, fields: dict, fields_set) -> Record:
    """The record of one model; ValueError for a name that is not a question model or fields that are
    not exactly that model's."""
    cls = CLASSES.get(class_name) if isinstance(class_name, str) else None
    if cls is None:
        raise ValueError(f"not a question model: {class_name!r}")
    if tuple(fields) != FIELDS[class_name] or not set(fields_set) <= set(fields):
        raise ValueError(f"the fields of {class_name} do not match the model")
    return cls(fields, frozenset(fields_set))
