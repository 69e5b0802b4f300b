"""Read a parallel layout as learners write it.

`TP=4 PP=4 CP=2 DP=2`, `tp4 pp4 cp2`, `TP 8, PP 16, DP 64`, `TP 开 8`, `TP×PP×CP×DP = 4×4×2×2`,
`(TP, PP, DP) = (8, 16, 64)`, `张量并行 8 流水线并行 16`; `v`/`VPP` for interleaving. Dimensions not
named are 1, except DP, which the engine derives from the GPU count. A size that is not a whole
number from 1 up (`TP=1e99`, `PP=2.5`, `DP=-4`) is refused by name, not read as its first digits.
"""

from __future__ import annotations

import re

from tutor.grading.normalize import SHORT_LIMIT, TooLong, clean
from tutor.grading.verdict import Message

DIMS = ("tp", "pp", "cp", "ep", "dp", "vpp")
_ALIASES = {"tp": "tp", "pp": "pp", "cp": "cp", "ep": "ep", "dp": "dp", "vpp": "vpp", "v": "vpp", "vp": "vpp",
            "张量并行": "tp", "张量": "tp", "流水线并行": "pp", "流水并行": "pp", "流水线": "pp",
            "上下文并行": "cp", "专家并行": "ep", "数据并行": "dp"}
_CHINESE_NAMES = "|".join(sorted((name for name in _ALIASES if not name.isascii()), key=len, reverse=True))
_LARGEST = 10**7
"""No cluster has more GPUs than this in one dimension: a bigger size is a typo, said so."""
# The size is read whole (sign, decimals, exponent) so that `TP=1e99` is refused, not read as 1.
_PAIR = re.compile(r"(?:(?<![a-z])(tp|pp|cp|ep|dp|vpp|vp|v)|(" + _CHINESE_NAMES + r"))"
                   r"\s*(?:=|:|是|为|开|取|设为|设成)?\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(?![\d.]\d)",
                   re.IGNORECASE)
_NAMES_THEN_NUMBERS = re.compile(r"^\(?\s*((?:tp|pp|cp|ep|dp|vpp|v)(?:\s*[x×*·,/]\s*(?:tp|pp|cp|ep|dp|vpp|v))+)\s*\)?"
                                 r"\s*=\s*\(?\s*(\d{1,7}(?:\s*[x×*·,/]\s*\d{1,7})*)\s*\)?", re.IGNORECASE)
_SPLIT = re.compile(r"\s*[x×*·,/]\s*")
_EXAMPLE = "TP=4 PP=4 CP=2 DP=2"


class ConfigError(ValueError):
    def __init__(self, message: Message):
        super().__init__(message.en)
        self.message = message


def parse_config(text: object) -> dict[str, int]:
    """{dim: size} for every dimension named; ConfigError when none is, or one is given twice."""
    try:
        cleaned = clean(text, SHORT_LIMIT)
    except TooLong as error:
        raise ConfigError(error.message) from None
    pairs: list[tuple[str, str]] = []
    grouped = _NAMES_THEN_NUMBERS.search(cleaned)
    if grouped:
        names, numbers = _SPLIT.split(grouped.group(1)), _SPLIT.split(grouped.group(2))
        if len(names) != len(numbers):
            raise ConfigError(Message(f"{len(names)} dimensions but {len(numbers)} sizes.",
                                      f"写了 {len(names)} 个维度，却有 {len(numbers)} 个数。"))
        pairs.extend(zip(names, numbers))
        cleaned = cleaned[:grouped.start()] + " " + cleaned[grouped.end():]
    pairs.extend((match.group(1) or match.group(2), match.group(3)) for match in _PAIR.finditer(cleaned))
    if not pairs:
        raise ConfigError(Message(f"Name each size, e.g. {_EXAMPLE} (EP for MoE, v for interleaving).",
                                  f"请写出每个维度的大小，如 {_EXAMPLE}（MoE 加 EP，interleaved 写 v）。"))
    layout: dict[str, int] = {}
    for name, number in pairs:
        dim = _ALIASES[name.lower()]
        if not re.fullmatch(r"-?\d+", number):
            raise ConfigError(Message(f"{dim.upper()} is a whole number of GPUs, not {number}.",
                                      f"{dim.upper()} 是 GPU 的个数，要写整数，不是 {number}。"))
        value = int(number)
        if value > _LARGEST:
            raise ConfigError(Message(f"{dim.upper()}={number} is larger than any cluster.",
                                      f"{dim.upper()}={number} 比任何集群都大。"))
        if value < 1:
            raise ConfigError(Message(f"{dim.upper()} must be at least 1.", f"{dim.upper()} 至少是 1。"))
        if dim in layout and layout[dim] != value:
            raise ConfigError(Message(f"{dim.upper()} is given twice ({layout[dim]} and {value}).",
                                      f"{dim.upper()} 写了两次（{layout[dim]} 和 {value}）。"))
        layout[dim] = value
    return layout


def show_layout(layout: dict[str, int]) -> str:
    """`TP=8 PP=2 DP=16`: TP, PP and DP always, CP, EP and v when above 1."""
    return " ".join(f"{'v' if dim == 'vpp' else dim.upper()}={layout[dim]}" for dim in DIMS
                    if dim in layout and (dim in ("tp", "pp", "dp") or layout[dim] > 1))
