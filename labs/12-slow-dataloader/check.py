"""Checker for slow-dataloader: the same model learned, the data wait gone, the step faster.

Runs the learner's program and the shipped one in the same ranks, in alternating rounds
(tutor/labs/rank/perfcheck.py says how each property is measured).
"""

from tutor.labs import rank as lab
from tutor.labs.rank.perfcheck import check_fix


def main() -> None:
    check_fix(lab.init(), category="data-loading")


if __name__ == "__main__":
    main()
