"""`python -m tutor.labs.rank PROGRAM [ARGS]`: how the runner starts each rank (see boot.py)."""

import sys

from tutor.labs.rank.boot import main

main(sys.argv[1:])
