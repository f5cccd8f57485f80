"""Smoke runs of the benchmark scripts in bench/ at small sizes."""
