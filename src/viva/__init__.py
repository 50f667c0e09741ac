"""Viva: practise technical interview questions out loud."""

__version__ = "0.1.0"
