"""ratings.service.shared.audit: the corrections log every correction writes (the
foundation other commands build on)."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import LimitError
from ratings.models import CORRECTION_ACTIONS, Correction
from ratings.results import Result
from ratings.service.shared import audit
from ratings.service.shared.audit import Action, Change

AT = dt.datetime(2026, 11, 30, 12, 0, 0, tzinfo=dt.UTC).replace(tzinfo=None)  # naive UTC


def _lines(session: Session) -> list[tuple[object, ...]]:
    return [
        tuple(row)
        for row in session.execute(
            sa.select(
                Correction.batch, Correction.action, Correction.player_id, Correction.game_id,
                Correction.event_id, Correction.import_id, Correction.period, Correction.field,
                Correction.old_value, Correction.new_value, Correction.reason,
            ).order_by(Correction.id)
        )
    ]  # fmt: skip


def test_record_writes_one_batch(session: Session) -> None:
    batch = audit.record(
        session,
        Action.GAME_EDIT,
        Change(
            game_id=50,
            event_id=4,
            field="played_on",
            old=dt.date(2026, 2, 20),
            new=dt.date(2026, 3, 31),
        ),
        Change(game_id=50, event_id=4, field="result", old=Result.DRAW, new=Result.WHITE_WIN),
        reason="  wrong date on the score sheet ",
        at=AT,
    )
    assert batch == 1
    why = "wrong date on the score sheet"
    assert _lines(session) == [
        (1, "game_edit", None, 50, 4, None, None, "played_on", "2026-02-20", "2026-03-31", why),
        (1, "game_edit", None, 50, 4, None, None, "result", "1/2-1/2", "1-0", why),
    ]
    assert {c.recorded_at for c in audit.entries(session)} == {AT}


def test_batches_are_numbered_in_order(session: Session) -> None:
    edit = Change(player_id=3, field="k10", old=False, new=True)
    first = audit.record(session, Action.PLAYER_EDIT, edit)
    second = audit.record(session, Action.UNRATE, Change(period="2026-12", old="published"))
    assert (first, second) == (1, 2)
    assert _lines(session) == [
        (1, "player_edit", 3, None, None, None, None, "k10", "false", "true", None),
        (2, "unrate", None, None, None, None, "2026-12", None, "published", None, None),
    ]
    assert [c.batch for c in audit.entries(session, player_ids=[3])] == [1]
    assert [c.action for c in audit.entries(session, action=Action.UNRATE)] == ["unrate"]
    assert [c.batch for c in audit.entries(session, batch=2)] == [2]


def test_recorded_at_is_utc_now(session: Session) -> None:
    before = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    audit.record(session, Action.IMPORT_UNDO, Change(import_id=7))
    after = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    (line,) = audit.entries(session)
    assert before <= line.recorded_at <= after


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, None),
        (True, "true"),
        (False, "false"),
        (0, "0"),
        (1987, "1987"),
        (dt.date(1987, 6, 5), "1987-06-05"),
        (
            dt.datetime(2026, 11, 30, 8, 5, 1, tzinfo=dt.UTC).replace(tzinfo=None),
            "2026-11-30 08:05:01",
        ),
        (Result.WHITE_FORFEIT_WIN, "+/-"),
        ("Öberg, Åsa", "Öberg, Åsa"),
    ],
)
def test_as_text(value: object, text: str | None) -> None:
    assert audit.as_text(value) == text


@pytest.mark.parametrize(
    ("reason", "message"),
    [
        ("x" * 1001, "--reason: longer than 1000 characters: 'xxxxxxxxxx"),
        ("line one\nline two", "--reason: contains a control character: 'line one\\nline two'"),
    ],
)
def test_a_bad_reason_writes_nothing(session: Session, reason: str, message: str) -> None:
    with pytest.raises(LimitError) as caught:
        audit.record(session, Action.GAME_VOID, Change(game_id=1), reason=reason)
    assert str(caught.value).startswith(message)
    assert _lines(session) == []


def test_a_blank_reason_is_none(session: Session) -> None:
    audit.record(session, Action.GAME_VOID, Change(game_id=1, old="a game"), reason="   ")
    assert _lines(session)[0][-1] is None


def test_record_needs_a_change(session: Session) -> None:
    with pytest.raises(ValueError, match="at least one change"):
        audit.record(session, Action.GAME_VOID)


def test_the_schema_and_the_service_know_the_same_actions() -> None:
    assert tuple(a.value for a in Action) == CORRECTION_ACTIONS


def test_the_database_refuses_an_unknown_action(session: Session) -> None:
    session.add(Correction(batch=1, recorded_at=AT, action="player_delete"))
    with pytest.raises(sa.exc.IntegrityError, match="ck_corrections_action"):
        session.flush()


def test_the_log_cannot_be_changed_through_the_orm(session: Session) -> None:
    audit.record(session, Action.GAME_EDIT, Change(game_id=1, field="round", old="1", new="2"))
    (line,) = audit.entries(session)
    line.new_value = "3"
    with pytest.raises(sa.exc.IntegrityError, match="corrections is append-only"):
        session.flush()
