"""Marking: score an answer point by point against a question's marking points."""
