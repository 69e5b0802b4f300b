"""The pre-rendered derivation text (tutor/sizing/printed_formulas.py) is current and writes every
step exactly as SymPy's printer does, so `tutor size` and `tutor plan` need no SymPy (issue 18:
`tutor plan` for 16,384 GPUs under a second; SymPy's import was half of it)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest

from tutor.sizing import registry
from tutor.sizing.engine import explain
from tutor.sizing.errors import SizingError
from tutor.sizing.hardware import gpu
from tutor.sizing.presets import model_preset
from tutor.sizing.specs import Parallel, Reliability, Throughput, Train
from tutor.sizing.chains import BOUND, size_derivation
from tutor.sizing.generate import PRINTED, printed_source
from tutor.sizing.printing import SympyRendering
from tutor.sizing.rendering import PRERENDERED
from tutor.sizing.report import inputs_for, mode_for
from tutor.sizing.validate import resolve

PRESETS = ("llama3-8b", "llama3-70b", "llama3-405b", "gpt3-175b", "mixtral-8x7b", "deepseek-v3", "lesson-70b",
           "dense-1t")
LAYOUTS = (dict(tp=1, pp=1, cp=1, dp=8), dict(tp=8, pp=16, cp=1, dp=8, vpp=2), dict(tp=4, pp=4, cp=2, dp=8),
           dict(tp=8, pp=16, cp=16, dp=8), dict(tp=1, pp=16, cp=1, dp=128, ep=64), dict(tp=8, pp=3, cp=1, dp=2))
# What changes the formulas a report chains: recompute, SP, FlashAttention, sharding, BF16 moments,
# DeepSeek-V3's savings, which throughput is given, tokens, failures and checkpoints.
SETTINGS = (
    {}, {"recompute": "selective"}, {"recompute": "full"}, {"sp": False}, {"flash": False},
    {"flash": False, "sp": False}, {"sharding": "zero1"}, {"sharding": "zero2"}, {"sharding": "zero3"},
    {"sharding": "distopt"}, {"sharding": "distopt", "moments": "bf16"},
    {"sharding": "distopt", "savings": ("norm_up", "fp8")}, {"savings": ("fp8",)},
)
RATES = (Throughput(), Throughput(mfu=0.4), Throughput(tokens_per_s=3e6), Throughput(step_time=12.0),
         Throughput(achieved_flops=400e12))
RELIABILITY = (None, Reliability(days=54, interruptions=419), Reliability(days=54, interruptions=419, ckpt_write_s=60))


def test_printed_module_is_current():
    assert PRINTED.read_text(encoding="utf-8") == printed_source(), "run `python -m tutor.sizing.generate`"


def test_prerendered_derivations_are_sympys_byte_for_byte():
    """Presets (dense, MoE, MLA, a stated Ψ) × layouts × the settings that change formulas: every step of
    the report's derivation, written from the tables and by SymPy at run time, in both languages."""
    sympy_text, hardware = SympyRendering(), gpu("h100")
    compared, formulas, terms = 0, set(), set()
    grid = itertools.product(enumerate(PRESETS), enumerate(LAYOUTS), enumerate(SETTINGS))
    spread = [(name, layout, settings) for (i, name), (j, layout), (k, settings) in grid if (i + j + k) % 2 == 0]
    for index, (name, layout, settings) in enumerate(spread):  # every setting with every preset, half the layouts
        model = model_preset(name)
        throughput, reliability = RATES[index % len(RATES)], RELIABILITY[index % len(RELIABILITY)]
        train = Train(seq=8192, global_batch=1024, tokens=15e12 if index % 2 else None)
        try:
            par = resolve(Parallel(**layout, **settings))
            derivation = size_derivation(mode_for(model, train, par, throughput, reliability))
            values = inputs_for(model, train, par, hardware, throughput, reliability)
            lang = "zh" if index % 3 == 0 else "en"
            _, steps = derivation.run(values, lang)
        except SizingError:
            continue  # a setting this model cannot take (savings without MLA, BF16 moments without sharding)
        _, reference = derivation.run(values, lang, rendering=sympy_text)
        assert steps == reference, (name, layout, settings)
        compared += 1
        formulas |= {item.formula for item in derivation.links}
        terms |= {term.key for terms in derivation.binding.values() for term in terms.values()}
    assert compared > 150, compared
    assert {term.key for term in BOUND} <= terms and (2048, (), ()) in terms  # every note, GPT-3's positions
    assert len(formulas) > 60, len(formulas)


def test_every_formula_line_is_sympys():
    """Each formula's two lines (a numeric check's `explain()` writes them too), from the tables and by SymPy."""
    sympy_text = SympyRendering()
    for name in registry.names():
        values = {symbol: 3.0 + 0.5 * position for position, symbol in enumerate(registry.get(name).symbols)}
        assert PRERENDERED.formula(name) == sympy_text.formula(name), name
        assert PRERENDERED.substituted(name, values) == sympy_text.substituted(name, values), name
    steps = explain("distopt_bytes_per_gpu", {"params": 70e9, "tp": 4, "pp": 4, "dp": 2, "cp": 2})
    assert [step["substituted"] for step in steps] == ["70e9/(4·4) = 4.4B", "70e9·(6 + 12/(2·2))/(4·4) = 39.4 GB"]


PLAN_RUNS = (
    ["plan", "--model", "llama3-405b", "--gpus", "16384", "--seq", "8192"],
    ["plan", "--model", "llama3-405b", "--gpus", "16384", "--seq", "131072", "--global-batch", "128", "--json"],
    ["plan", "--model", "deepseek-v3", "--gpus", "2048", "--published", "--lang", "zh"],
    ["plan", "--model", "gpt3-175b", "--gpus", "1024", "--global-batch", "1536", "--no-flash", "--zero", "1",
     "--mfu", "0.4", "--tokens", "300B", "--json"],
    ["plan", "--model", "mixtral-8x7b", "--gpus", "64", "--global-batch", "512", "--recompute", "full", "--no-sp"],
    ["size", "--model", "gpt3-175b", "--tp", "8", "--pp", "8", "--dp", "16", "--vpp", "2", "--days", "54",
     "--interruptions", "419", "--ckpt-write-s", "60", "--achieved-tflops", "400", "--tokens", "2T"],
)


@pytest.mark.timeout(120)
def test_plan_and_size_import_no_sympy(tmp_path):
    """`tutor plan` for 16,384 GPUs (8K and 128K), MoE, GPT and the switches that change formulas, and
    `tutor size` with the reliability notes: each process ends without SymPy loaded."""
    code = ("import contextlib, io, sys\nfrom tutor.cli import main\n"
            f"for argv in {PLAN_RUNS!r}:\n"
            "    with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "        status = main(argv)\n"
            "    assert status == 0 and out.getvalue(), (argv, status)\n"
            "loaded = sorted(name for name in sys.modules if name.split('.')[0] in ('sympy', 'mpmath'))\n"
            "assert not loaded, loaded[:5]\nprint('ok')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env={"TUTOR_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"
