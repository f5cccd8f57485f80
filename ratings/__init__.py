"""ratings: a persistent chess rating database under the FIDE Rating Regulations."""

from __future__ import annotations

__version__ = "0.1.0"
