"""The content says things in its own words, not in the source lesson's.

The source lesson (`../shared/seed/lesson-v7.zh.md`, beside the clone) supplies the facts and
figures; the prose the learner reads is the tutor's own. The rule (issue 20):

- Chinese: after NFKC, lower case, and dropping whitespace and Markdown marks, a *run* is a
  stretch of 15 or more characters, 6 or more of them Chinese, that also occurs in the source.
  Over every Chinese string of lessons/, questions/, interview/ and labs/*/lab.yaml together, at
  most 5 runs are allowed. Code blocks and command lines are left out on both sides: a flag or
  a shell command is the same in any wording.
- English: no run of 8 or more words in a row shared with the source.

The matcher is written here rather than taken from difflib: difflib's SequenceMatcher finds one
longest block per pair and its autojunk heuristic drops frequent characters, which would hide
runs; a suffix automaton gives every position's longest match against the whole source in
linear time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SEED = REPO.parent / "shared" / "seed" / "lesson-v7.zh.md"
CONTENT_GLOBS = ("lessons/*.yaml", "questions/*.yaml", "interview/*.yaml", "labs/*/lab.yaml")

MIN_RUN_CHARS = 15
MIN_RUN_CJK = 6
MAX_RUNS = 5
MAX_SHARED_WORDS = 7  # a run of 8 English words fails

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Markdown marks that change nothing a reader sees as wording: emphasis, code ticks, headings,
# quotes, table bars and link brackets. Hyphens stay: they are part of tp-cp-ep-dp-pp.
MARKDOWN_MARKS = re.compile(r"[*`#>|~\[\]]")
LIST_MARKER = re.compile(r"^\s*(?:[-+*]|\d+[.)])\s+")
# A command line: an optional prompt, then a command or an environment assignment.
COMMAND_LINE = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\$\s+)?(?:export\s|torchrun\b|py-spy\b|python3?\s|srun\b|sbatch\b|tutor\s|"
    r"nvidia-smi\b|nsys\b|ncu\b|all_reduce_perf\b|[A-Z][A-Z0-9_]*=\S)"
)
FENCE = re.compile(r"^\s*(```|~~~)")
# A word: letters and digits, with the hyphens, underscores and dots inside a flag or a name
# (`--overlap-grad-reduce`, `zero-3`) kept, so one flag is one word.
WORD = re.compile(r"[a-z0-9]+(?:[-_.'’][a-z0-9]+)*")
LETTER = re.compile(r"[a-z]")
MIN_RUN_LETTER_WORDS = 6  # a run of 8 numbers and symbols ("4 × 4 × 2 × 2 = 64") is not prose
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def prose_lines(text: str) -> list[str]:
    """The lines of `text` that are prose: fenced code and command lines dropped."""
    kept, in_fence = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or COMMAND_LINE.match(line) or TABLE_RULE.match(line) or line.startswith("    "):
            continue
        kept.append(LIST_MARKER.sub("", line))
    return kept


def normalise(text: str) -> str:
    """NFKC, lower case, no whitespace and no Markdown marks, over the prose of `text`."""
    joined = "\n".join(prose_lines(text))
    folded = unicodedata.normalize("NFKC", joined).lower()
    return re.sub(r"\s+", "", MARKDOWN_MARKS.sub("", folded))


class SuffixAutomaton:
    """Every substring of one text, to find the longest match at each position of another."""

    def __init__(self, text: str):
        self.next: list[dict[str, int]] = [{}]
        self.link = [-1]
        self.length = [0]
        last = 0
        for char in text:
            current = len(self.length)
            self.next.append({})
            self.length.append(self.length[last] + 1)
            self.link.append(0)
            state = last
            while state != -1 and char not in self.next[state]:
                self.next[state][char] = current
                state = self.link[state]
            if state != -1:
                target = self.next[state][char]
                if self.length[state] + 1 == self.length[target]:
                    self.link[current] = target
                else:
                    clone = len(self.length)
                    self.next.append(dict(self.next[target]))
                    self.length.append(self.length[state] + 1)
                    self.link.append(self.link[target])
                    while state != -1 and self.next[state].get(char) == target:
                        self.next[state][char] = clone
                        state = self.link[state]
                    self.link[target] = self.link[current] = clone
            last = current

    def match_ends(self, text: str) -> list[int]:
        """For each end position j, the length of the longest suffix of text[:j+1] in the source."""
        lengths, state, length = [], 0, 0
        for char in text:
            while state and char not in self.next[state]:
                state = self.link[state]
                length = self.length[state]
            if char in self.next[state]:
                state = self.next[state][char]
                length += 1
            else:
                state, length = 0, 0
            lengths.append(length)
        return lengths


def shared_runs(text: str, source: SuffixAutomaton) -> list[str]:
    """The runs of `text` (already normalised) shared with the source, left to right, disjoint.

    At each end position the longest shared stretch ending there is known; a stretch is maximal
    when the next position does not extend it. Maximal stretches that qualify are counted once
    each, skipping any that overlap one already counted, so one copied sentence is one run.
    """
    ends = source.match_ends(text)
    runs, taken_until = [], 0
    for j, length in enumerate(ends):
        maximal = j + 1 == len(ends) or ends[j + 1] != length + 1
        if not maximal or length < MIN_RUN_CHARS:
            continue
        start = j + 1 - length
        if start < taken_until:
            # overlaps the last counted run: only the part after it can count
            start = taken_until
        run = text[start:j + 1]
        if len(run) >= MIN_RUN_CHARS and len(CJK.findall(run)) >= MIN_RUN_CJK:
            runs.append(run)
            taken_until = j + 1
    return runs


def words(text: str) -> list[list[str]]:
    """English words of the prose of `text`, in segments that Chinese characters break."""
    prose = unicodedata.normalize("NFKC", "\n".join(prose_lines(text))).lower()
    return [WORD.findall(segment) for segment in CJK.split(MARKDOWN_MARKS.sub(" ", prose))]


def ngrams(segments: list[list[str]], n: int) -> set[tuple[str, ...]]:
    """Runs of n words that hold at least MIN_RUN_LETTER_WORDS words with letters."""
    grams = {tuple(seg[i:i + n]) for seg in segments for i in range(len(seg) - n + 1)}
    return {gram for gram in grams if sum(bool(LETTER.search(w)) for w in gram) >= MIN_RUN_LETTER_WORDS}


@dataclass(frozen=True)
class Text:
    where: str  # path:line
    value: str
    file: str = ""
    rubric_point: str = ""  # the id of the rubric point whose `text` this is, if it is one


def content_strings(root: Path = REPO) -> list[Text]:
    """Every string scalar of the content files, with its file and line."""
    found: list[Text] = []
    for pattern in CONTENT_GLOBS:
        for path in sorted(root.glob(pattern)):
            relative = path.relative_to(root).as_posix()
            # (node, the keys above it, the id of the nearest mapping above it)
            stack = [(yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader), (), "")]
            while stack:
                node, keys, owner = stack.pop()
                if isinstance(node, yaml.ScalarNode):
                    if isinstance(node.value, str):
                        point = owner if "points" in keys[-5:-2] and "text" in keys[-2:] else ""
                        found.append(Text(f"{relative}:{node.start_mark.line + 1}", node.value, relative, point))
                elif isinstance(node, yaml.SequenceNode):
                    stack.extend((child, keys + (i,), owner) for i, child in enumerate(node.value))
                elif isinstance(node, yaml.MappingNode):
                    ids = [v.value for k, v in node.value if k.value == "id" and isinstance(v, yaml.ScalarNode)]
                    here = ids[0] if ids else owner
                    stack.extend((value, keys + (key.value,), here) for key, value in node.value)
    return found


def chinese_runs(texts: list[Text], source_text: str) -> list[tuple[str, str]]:
    source = SuffixAutomaton(normalise(source_text))
    return [(text.where, run) for text in texts if CJK.search(text.value)
            for run in shared_runs(normalise(text.value), source)]


def english_runs(texts: list[Text], source_text: str) -> list[tuple[str, str]]:
    n = MAX_SHARED_WORDS + 1
    source = ngrams(words(source_text), n)
    hits = []
    for text in texts:
        shared = sorted(ngrams(words(text.value), n) & source)
        if shared:
            hits.append((text.where, " ".join(shared[0])))
    return hits


# --- the matcher, against cheats and near misses -------------------------------------------

SOURCE = (
    "PP 只在段边界传一次 activation,DP 每个 step 才同步一次 gradient,还能藏在 backward 后面。\n"
    "```\nexport TORCH_NCCL_DUMP_ON_TIMEOUT=true # 超时时 dump 出最近的全部 collective 记录\n```\n"
    "I size memory first: 16 bytes per parameter plus activations tells me how many GPUs one replica needs.\n"
)


def runs_in(text: str) -> list[str]:
    return [run for _where, run in chinese_runs([Text("x", text)], SOURCE)]


def test_a_copied_sentence_is_one_run():
    assert len(runs_in("DP 每个 step 才同步一次 gradient，还能藏在 backward 后面。")) == 1


def test_width_case_spacing_and_markdown_do_not_hide_a_copy():
    # full-width comma, upper case, spaces removed, bold and code marks added
    assert len(runs_in("DP每个STEP才同步一次 **gradient**，还能藏在 `backward` 后面")) == 1


def test_own_words_with_the_same_facts_pass():
    assert runs_in("gradient 一个 step 只同步一次，而且可以躲在 backward 的计算后面。") == []


def test_a_short_shared_phrase_is_not_a_run():
    assert runs_in("它只同步一次 gradient。") == []  # 12 characters after normalising


def test_a_run_of_technical_terms_needs_six_chinese_characters():
    # "activation,dp每个step" is 16 characters but holds only 2 Chinese ones
    assert runs_in("activation,DP 每个 step") == []


def test_two_copied_sentences_are_two_runs():
    text = "PP 只在段边界传一次 activation，我们自己的话在中间写得足够长一些。DP 每个 step 才同步一次 gradient"
    assert len(runs_in(text)) == 2


def test_code_blocks_and_command_lines_are_left_out():
    sentence = "DP 每个 step 才同步一次 gradient，还能藏在 backward 后面"
    assert runs_in(f"示例：\n```\n{sentence}\n```") == []
    assert runs_in(f"export NCCL_DEBUG=INFO  # {sentence}") == []
    assert len(runs_in(f"示例：\n{sentence}")) == 1
    # the source's own code block is not prose either
    assert runs_in("超时时 dump 出最近的全部 collective 记录，写在正文里。") == []


def test_eight_shared_english_words_fail_and_seven_pass():
    eight = "First, 16 bytes per parameter plus activations tells me how many."
    seven = "So 16 bytes per parameter plus activations tells us a lot."
    assert english_runs([Text("x", eight)], SOURCE)
    assert not english_runs([Text("x", seven)], SOURCE)


def test_chinese_between_english_words_breaks_an_english_run():
    assert words("one two 三 four") == [["one", "two"], ["four"]]


def test_a_flag_is_one_word_and_numbers_alone_are_not_a_run():
    assert words("use --overlap-grad-reduce with ZeRO-3") == [["use", "overlap-grad-reduce", "with", "zero-3"]]
    source = "4 × 4 × 2 × 2 = 64 and TP 4 × CP 2 = 8"
    assert not english_runs([Text("x", "4 × 4 × 2 × 2 = 64 and TP 4 × CP 2 = 8 GPUs")], source)


def test_content_strings_reads_every_language_with_lines(tmp_path: Path):
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-a.yaml").write_text(
        "title:\n  en: Memory\n  zh: 先算显存\nsections:\n  - body: {zh: 正文}\n", encoding="utf-8")
    found = {(t.where, t.value) for t in content_strings(tmp_path)}
    assert ("lessons/01-a.yaml:3", "先算显存") in found
    assert ("lessons/01-a.yaml:5", "正文") in found


# --- the rule, over the shipped content ----------------------------------------------------

needs_seed = pytest.mark.skipif(
    not SEED.is_file(), reason=f"source lesson not found at {SEED} (CI checks out shared/ beside the clone)")


@needs_seed
def test_chinese_content_is_in_its_own_words():
    runs = chinese_runs(content_strings(), SEED.read_text(encoding="utf-8"))
    listing = "\n".join(f"{where}: {run}" for where, run in runs)
    assert len(runs) <= MAX_RUNS, f"{len(runs)} runs shared with the source (at most {MAX_RUNS}):\n{listing}"


@needs_seed
def test_english_content_shares_no_eight_word_run():
    hits = english_runs(content_strings(), SEED.read_text(encoding="utf-8"))
    listing = "\n".join(f"{where}: {run}" for where, run in hits)
    assert not hits, f"English shared with the source in runs of 8+ words:\n{listing}"
