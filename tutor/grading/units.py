"""The units a learner may write, per dimension, with their factor to the base unit.

Dimensions and base units follow the sizing engine (`tutor.sizing.display.DISPLAY_UNITS`):
bytes, time (s), fraction, flops, flop_rate (FLOP/s), token_rate (tokens/s), count; `any` is a
plain number. GB = 10^9 bytes (DESIGN §4); KiB..PiB are binary.

Why a table and not pint: we evaluated pint 0.25 for this. It reads `K`, `M` and `T` as
kelvin, molar and tesla (here they are thousand, million, trillion), has no `KB`, `FLOP` or
`tokens`, knows no 万, 亿, 天 or 小时, costs ~0.4 s to build its registry and ~0.1 ms per
conversion, and its expression parser evaluates `9**9**9` without bound. What remains after
working around all that is this table of ~150 spellings, so we keep the table.
"""

from __future__ import annotations

import re

_BYTES = {
    "b": (1, "B"), "byte": (1, "B"), "bytes": (1, "B"), "字节": (1, "B"),
    "kb": (1e3, "KB"), "mb": (1e6, "MB"), "gb": (1e9, "GB"), "tb": (1e12, "TB"), "pb": (1e15, "PB"),
    "kib": (2**10, "KiB"), "mib": (2**20, "MiB"), "gib": (2**30, "GiB"), "tib": (2**40, "TiB"), "pib": (2**50, "PiB"),
    "kbytes": (1e3, "KB"), "mbytes": (1e6, "MB"), "gbytes": (1e9, "GB"), "tbytes": (1e12, "TB"),
    "kilobyte": (1e3, "KB"), "kilobytes": (1e3, "KB"), "megabyte": (1e6, "MB"), "megabytes": (1e6, "MB"),
    "gigabyte": (1e9, "GB"), "gigabytes": (1e9, "GB"), "terabyte": (1e12, "TB"), "terabytes": (1e12, "TB"),
}
_TIME = {
    "ms": (1e-3, "ms"), "毫秒": (1e-3, "ms"),
    "s": (1, "s"), "sec": (1, "s"), "secs": (1, "s"), "second": (1, "s"), "seconds": (1, "s"), "秒": (1, "s"),
    "秒钟": (1, "s"),
    "m": (60, "min"), "min": (60, "min"), "mins": (60, "min"), "minute": (60, "min"), "minutes": (60, "min"),
    "分": (60, "min"), "分钟": (60, "min"),
    "h": (3600, "h"), "hr": (3600, "h"), "hrs": (3600, "h"), "hour": (3600, "h"), "hours": (3600, "h"),
    "小时": (3600, "h"), "个小时": (3600, "h"), "钟头": (3600, "h"), "个钟头": (3600, "h"),
    "d": (86400, "days"), "day": (86400, "days"), "days": (86400, "days"), "天": (86400, "days"),
    "日": (86400, "days"),
    "wk": (604800, "weeks"), "week": (604800, "weeks"), "weeks": (604800, "weeks"), "周": (604800, "weeks"),
    "星期": (604800, "weeks"), "个星期": (604800, "weeks"), "个月": (2629800, "months"),
    "month": (2629800, "months"), "months": (2629800, "months"),
}
_FRACTION = {"%": (0.01, "%"), "percent": (0.01, "%"), "pct": (0.01, "%"), "个百分点": (0.01, "%")}

# Count multipliers: K/M/B/T as engineers write them, and the Chinese 万 (10^4) and 亿 (10^8).
MULTIPLIERS = {
    "k": 1e3, "thousand": 1e3, "千": 1e3,
    "m": 1e6, "mn": 1e6, "million": 1e6, "millions": 1e6, "百万": 1e6, "千万": 1e7,
    "b": 1e9, "g": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9, "十亿": 1e9, "百亿": 1e10, "千亿": 1e11,
    "t": 1e12, "trillion": 1e12, "trillions": 1e12, "万亿": 1e12,
    "万": 1e4, "亿": 1e8,
}
# Words that name what is counted; they do not change the value.
_NOUNS = (
    "gpu", "gpus", "card", "cards", "卡", "张", "张卡", "块", "块卡", "张gpu", "块gpu", "个gpu", "device", "devices",
    "token", "tokens", "个token", "tok", "toks", "param", "params", "parameter", "parameters", "参数", "个参数",
    "layer", "layers", "层", "microbatch", "microbatches", "micro batch", "micro batches", "个microbatch",
    "sequence", "sequences", "条", "条序列", "个", "次", "step", "steps", "步",
    "replica", "replicas", "份", "stage", "stages", "ranks", "rank", "x", "times", "倍", "interruptions",
    "h100", "h100s", "h200", "h200s", "a100", "a100s", "b200", "b200s", "h100 gpus", "h200 gpus", "a100 gpus",
    "显卡",
)
# Machines are not what any question here counts (GPUs, layers, steps …): "200 nodes" for 200 GPUs
# is eight times the answer, so a node count is refused with its own remark, never read as a count.
_MACHINES = frozenset({"node", "nodes", "台", "台机器", "节点", "个节点", "机器", "台服务器", "server", "servers",
                       "machine", "machines", "host", "hosts"})


def counts_machines(unit_text: str) -> bool:
    return _key(unit_text) in _MACHINES
COUNT_NOUNS = frozenset(_NOUNS)
_TOKEN_NOUNS = frozenset({"", "token", "tokens", "个token", "tok", "toks"})
_FLOP_PREFIX = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15, "e": 1e18, "z": 1e21, "y": 1e24}
_FLOP_WORDS = ("flops", "flop")

UNIT_DIMENSIONS = ("bytes", "time", "fraction", "flops", "flop_rate", "token_rate", "byte_rate", "count")


def _key(text: str) -> str:
    return text.casefold().replace(" ", "").replace("-", "")


# Bits, as network engineers write them: an upper-case prefix with a lower-case b (Gb, Mb), or the
# word (Gbit, gigabits). A learner who writes "39.4 Gb" for bytes has written an eighth of it.
_BITS = re.compile(r"^(?:(?P<prefix>[KMGTP])b|(?P<word>[kmgtpKMGTP]?)(?:bit|bits)|(?P<long>kilo|mega|giga|tera|peta)bits?)$")
_BIT_FACTOR = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15,
               "kilo": 1e3, "mega": 1e6, "giga": 1e9, "tera": 1e12, "peta": 1e15}


def bits(unit_text: str) -> tuple[float, str] | None:
    """(bytes per unit, label) when `unit_text` is a bit unit ("Gb" = 10^9 bits = 1.25e8 bytes)."""
    match = _BITS.match(unit_text.replace(" ", ""))
    if match is None:
        return None
    prefix = (match.group("prefix") or match.group("word") or match.group("long") or "").casefold()
    label = {"": "bit", "kilo": "Kb", "mega": "Mb", "giga": "Gb", "tera": "Tb", "peta": "Pb"}.get(prefix, prefix.upper() + "b")
    return _BIT_FACTOR[prefix] / 8, label


def lookup(unit_text: str, dimension: str) -> tuple[float, str] | None:
    """(factor to base, canonical label) of `unit_text` in `dimension`, or None."""
    key = _key(unit_text)
    if dimension == "bytes":
        return bits(unit_text.strip()) or _BYTES.get(key)
    if dimension == "time":
        return _TIME.get(key)
    if dimension == "fraction":
        return _FRACTION.get(key)
    if dimension == "flops":
        return _flops(key)
    if dimension == "flop_rate":
        return _flop_rate(key)
    if dimension == "token_rate":
        return _token_rate(key)
    if dimension == "byte_rate":
        return byte_rate(unit_text)
    if dimension in ("count", "any"):
        return _count(key)
    return None


# A Chinese measure word before the thing counted: "200张H100", "8块显卡", "16台节点".
_MEASURE_WORD = re.compile(r"^[张块个台颗](?=.)")


def _is_count_noun(key: str) -> bool:
    return key in COUNT_NOUNS or _MEASURE_WORD.sub("", key) in COUNT_NOUNS


def _count(key: str) -> tuple[float, str] | None:
    if key == "" or _is_count_noun(key):
        return 1.0, ""
    for word, factor in MULTIPLIERS.items():
        if key.startswith(word) and (key[len(word):] == "" or _is_count_noun(key[len(word):])):
            return factor, ""
    return None


def _flops(key: str) -> tuple[float, str] | None:
    for word in _FLOP_WORDS:
        if key.endswith(word) and key[:-len(word)] in _FLOP_PREFIX:
            return _FLOP_PREFIX[key[:-len(word)]], "FLOPs"
    return None


def _per_second(key: str) -> tuple[str, float] | None:
    """Split `X/s`, `X per second`, `X每秒` into (X, seconds per time unit)."""
    for separator in ("/", "per", "每"):
        head, found, tail = key.rpartition(separator)
        if found and tail in _TIME:
            return head, _TIME[tail][0]
    if key.startswith("每") and key[1:] in _TIME:
        return "", _TIME[key[1:]][0]
    return None


def _flop_rate(key: str) -> tuple[float, str] | None:
    split = _per_second(key)
    if split is not None:
        head, seconds = split
        if head == "":
            return 1 / seconds, "FLOP/s"
        flops = _flops(head) or (_count(head) if head in MULTIPLIERS else None)
        return (flops[0] / seconds, "FLOP/s") if flops else None
    flops = _flops(key)  # "989 TFLOPS": the per-second is implied where a rate is asked for
    return (flops[0], "FLOP/s") if flops else None


def _token_rate(key: str) -> tuple[float, str] | None:
    split = _per_second(key)
    if split is None:
        return (1.0, "tokens/s") if key in _TOKEN_NOUNS else None
    head, seconds = split
    if head in _TOKEN_NOUNS:
        return 1 / seconds, "tokens/s"
    for word, factor in MULTIPLIERS.items():
        if head.startswith(word) and head[len(word):] in _TOKEN_NOUNS:
            return factor / seconds, "tokens/s"
    return None


# "400 Gbps", "50 GBps": bps is bits per second whatever the prefix's case (the network
# convention), Bps bytes. Matched on the text as written, since Gb/s and GB/s differ by 8.
_PS_SUFFIX = re.compile(r"^(?P<head>.*?[bB])ps$")


def byte_rate(unit_text: str) -> tuple[float, str] | None:
    """(bytes per second per unit, label) of a bandwidth unit: `GB/s`, `GiB/s`, `TB/s`, `Gb/s`,
    `Gbit/s`, `Gbps`, `GB per second`, `GB/秒`, `GB每秒`. Bits and bytes are told apart exactly as
    for sizes (`bits`): Gb/s is 10^9 bits = 1.25e8 bytes per second, an eighth of GB/s."""
    compact = unit_text.replace(" ", "")
    suffix = _PS_SUFFIX.match(compact)
    if suffix:
        head = suffix.group("head")
        if head.endswith("b"):  # bps: bits, "gbps" as much as "Gbps"
            found = bits(head[:-1].upper() + "b" if len(head) == 2 else head)
        else:
            found = _BYTES.get(_key(head))
        return (found[0], found[1] + "/s") if found else None
    for separator in ("/", "per", "每"):
        head, found_separator, tail = compact.rpartition(separator)
        if found_separator and _key(tail) in _TIME and head:
            size = bits(head) or _BYTES.get(_key(head))
            if size is None:
                return None
            seconds = _TIME[_key(tail)][0]
            return size[0] / seconds, size[1] + ("/s" if seconds == 1 else f"/{_TIME[_key(tail)][1]}")
    return None


def other_dimension(unit_text: str, dimension: str) -> str | None:
    """The dimension `unit_text` belongs to when it is not `dimension` (for a helpful message)."""
    for other in UNIT_DIMENSIONS:
        if other != dimension and lookup(unit_text, other) is not None and _key(unit_text) not in ("", "x"):
            return other
    return None


DIMENSION_WORDS = {
    "bytes": ("a size in bytes (e.g. 39 GB)", "字节数（如 39 GB）"),
    "time": ("a time (e.g. 43 days, 2.8 h)", "时间（如 43 天、2.8 小时）"),
    "fraction": ("a percentage (e.g. 23%)", "百分比（如 23%）"),
    "flops": ("a FLOP count (e.g. 1.2e25 FLOPs)", "FLOPs 数（如 1.2e25 FLOPs）"),
    "flop_rate": ("a FLOP rate (e.g. 989 TFLOP/s)", "FLOP/s（如 989 TFLOP/s）"),
    "token_rate": ("a throughput (e.g. 540K tokens/s)", "吞吐（如 54 万 tokens/s）"),
    "byte_rate": ("a bandwidth in bytes per second (e.g. 50 GB/s)", "带宽，字节每秒（如 50 GB/s）"),
    "count": ("a count (e.g. 200, 70B, 540K)", "数量（如 200、70B、54 万）"),
    "any": ("a number", "一个数"),
}
