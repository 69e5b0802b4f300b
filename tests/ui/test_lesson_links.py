"""Walkthrough minor 17: "Diagnosing slow training" and "Diagnosing hangs" linked no labs, though
slow-dataloader and checkpoint-rank0 match them exactly (only §placement offered tp-mlp)."""

from __future__ import annotations

from tutor.content import load


def test_the_diagnosis_sections_offer_their_labs():
    content = load()
    sections = {section.id: section for section in content.lessons["recipe"].model.sections}
    assert "slow-dataloader" in sections["slow-training"].labs
    assert "checkpoint-rank0" in sections["hangs"].labs
    for section in sections.values():
        for lab in section.labs:
            assert lab in content.labs, (section.id, lab)
