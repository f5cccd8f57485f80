"""``python -m ratings``."""

from ratings.cli import cli

cli()
