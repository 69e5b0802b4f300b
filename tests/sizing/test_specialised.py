"""The planner's per-search functions (Derivation.specialised) give `fused`'s values to the bit, and
SymPy's (issue 18).

The search binds the model's numbers once and computes the links that depend on them alone in
`make`; a slip there (a layout symbol taken for a constant, a link left out) would change the memory
of some layouts only, so every memory mode the planner compiles for five real searches is compared,
on all of their layouts, with the fused function and with the chain substituted in SymPy from the
registry's expressions and evaluated by mpmath (tutor.sizing.symbolic), independent of the
generated code."""

from __future__ import annotations

import math

from tutor.sizing.hardware import gpu
from tutor.sizing.presets import model_preset
from tutor.sizing.specs import Train
from tutor.sizing.chains import LAYOUT_INPUTS, planner_derivation, planner_function
from tutor.sizing.planner import MEMORY, Options, _Evaluator, _picker, candidates
from tutor.sizing.symbolic import lambdified

CASES = (("llama3-405b", 16384, 8192, 2048, Options()), ("llama3-70b", 64, 8192, 512, Options(sharding="zero2")),
         ("deepseek-v3", 2048, 4096, 15360, Options()), ("gpt3-175b", 1024, 2048, 1536, Options(flash=False)),
         ("mixtral-8x7b", 64, 4096, 512, Options(recompute="full")))


def test_every_compiled_mode_gives_the_fused_values(monkeypatch):
    seen = []
    original = _Evaluator._compile

    def spy(self, key):
        seen.append((self, key))
        return original(self, key)

    monkeypatch.setattr(_Evaluator, "_compile", spy)
    hardware = gpu("h100")
    layouts = [(tp, pp, cp, ep, dp, v) for tp in (1, 8) for pp in (1, 4, 16) for cp in (1, 2) for ep in (1, 8)
               for dp in (3, 64) for v in (1, 2)]
    checked = 0
    for name, gpus, seq, batch, options in CASES:
        found, _, _ = candidates(model_preset(name), Train(seq=seq, global_batch=batch), gpus, hardware,
                                 options=options)
        assert found, name
    from tutor.sizing.chains import Mode  # the mode each entry was compiled for, rebuilt as _memory_function does

    for evaluator, (sharding, row, first_stage, trimmed, interleaved) in seen:
        model = evaluator.model
        mode = Mode(sharding=sharding, activation_row=row, moe=model.is_moe, attention=evaluator.shape_known,
                    heads=evaluator.shape_known and model.heads is not None, first_stage=first_stage,
                    stage_memory=model.params is None, trimmed=trimmed, positions=model.positions,
                    moments=evaluator.options.moments)
        outputs, names, fused = planner_function(mode, MEMORY)
        derivation, _ = planner_derivation(mode)
        constants, make = derivation.specialised(outputs, LAYOUT_INPUTS)
        function = make(*(evaluator.values[name] for name in constants))
        pick = _picker(names)
        fixed = tuple(evaluator.values[name] for name in names if name not in LAYOUT_INPUTS)
        symbolic_names, symbolic = lambdified(derivation, outputs)
        values = evaluator.values
        for layout in layouts:
            want, got = fused(*pick(layout + fixed)), function(*layout)
            assert got == want, (model.name, mode, layout)
            point = {**values, **dict(zip(LAYOUT_INPUTS, layout))}
            exact = symbolic(*(point[name] for name in symbolic_names))
            assert len(got) == len(exact) and all(math.isclose(a, float(b), rel_tol=1e-12) for a, b in zip(got, exact)), \
                (model.name, mode, layout)
            checked += 1
    assert len({key for _, key in seen}) >= 20 and checked > 2000


def test_no_input_is_named_like_a_local_of_the_written_functions():
    # Derivation writes earlier outputs as o_NAME, bound terms as b_..., and the parts it computes once as
    # k_, s_ and t_ locals; an engine symbol with such a name would be shadowed by them.
    from tutor.sizing.compiled_formulas import SYMBOLS

    assert not [name for name in SYMBOLS if name.startswith(("o_", "b_", "k_", "s_", "t_"))]
