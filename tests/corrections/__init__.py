"""Corrections (ratings.service.corrections): edits, voids, moves, undo, settings and their log."""
