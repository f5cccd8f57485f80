"""The command line itself (ratings.cli): admin, calc, progress, completion, error hints."""
