"""current_ratings: one SELECT a list, read through the period's index (issue 16, item 4)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 04:45:00.000000

* View ``current_ratings`` replaced by ``views.CURRENT_RATINGS_0007``: the same columns and
  rows, one ``SELECT`` a list (standard, rapid, blitz) joined by ``UNION ALL``, each giving the
  newest period's id to the join of the list rows. 0006 joined every player to a derived
  table of the three lists and their periods; PostgreSQL could not tell the period in advance
  and read the whole of ``rating_history`` (3.5-3.8 s for the top of the list at 600,000
  players and 15 periods; ``bench/RESULTS.md``).

No table changes. Downgrade puts 0006's view back.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from ratings import views

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.replace_view(views.CURRENT_RATINGS_0007, replaces=views.CURRENT_RATINGS_0006)


def downgrade() -> None:
    op.replace_view(views.CURRENT_RATINGS_0006, replaces=views.CURRENT_RATINGS_0007)
