"""Reference estimators re-implemented from their published code, for benchmarks/compare_references.py."""
