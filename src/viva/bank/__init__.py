"""The question bank: content model, loading with file:line errors, and export."""

from viva.bank.load import BankError, load_bank
from viva.bank.model import (
    Bank,
    MarkingPoint,
    Misconception,
    Question,
    SampleAnswer,
    Section,
    Source,
    Topic,
)

__all__ = [
    "Bank",
    "BankError",
    "MarkingPoint",
    "Misconception",
    "Question",
    "SampleAnswer",
    "Section",
    "Source",
    "Topic",
    "load_bank",
]
