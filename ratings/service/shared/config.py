"""The rating system's settings row: created once, read by every use case."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ratings.errors import (
    InvalidInputError,
)
from ratings.models import Settings
from ratings.rules import SystemConfig, system_config


def create_settings(session: Session, config: SystemConfig) -> Settings:
    """Store the rating system chosen at ``ratings init``."""
    settings = Settings(
        id=1,
        system=config.system.value,
        k_factor=config.k,
        start_rating=config.start_rating,
        expected_method=config.expected.value,
        period_months=config.period_months,
        closing_days=config.closing_days,
    )
    session.add(settings)
    session.flush()
    return settings


def get_config(session: Session) -> SystemConfig:
    """The database's rating system."""
    row = session.get(Settings, 1)
    if row is None:
        raise InvalidInputError("this database has no settings row; was it made by 'ratings init'?")
    return system_config(
        row.system,
        k=row.k_factor if row.system != "fide" or row.k_factor is not None else None,
        start_rating=row.start_rating,
        expected=row.expected_method,
        period_months=row.period_months,
        closing_days=row.closing_days,
    )
