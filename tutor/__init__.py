"""The distributed-training interview tutor."""

__version__ = "0.1.0"
