"""The site's JSON and manifest fingerprints written by the fast paths are the bytes the plain
ones give: ``players/ID.json`` as :func:`ratings.site.data_json.dumps` of the schema's
objects, and the manifest's fingerprints as those of ``dataclasses.astuple`` (a manifest of
an earlier publish stays valid)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from decimal import Decimal

from ratings.service.reading import publish as data
from ratings.site import plan
from ratings.site.data_json import (
    LIST_COLUMNS,
    SCHEMA_VERSION,
    JsonTexts,
    dumps,
    list_json,
    player_json,
)

ODD = 'Ö"\\</script>\u2028\x01\ud7ff 𝄞, Jr.'

PLAYER = data.SitePlayer(7, ODD, 12345, "IRL", "f", "WGM", 2010, True, 1800, 30)
BARE = data.SitePlayer(8, "Plain, Name", None, None, None, None, None, False, None, None)
EVENTS = {
    3: data.SiteEvent(3, f"Club {ODD}", dt.date(2025, 1, 2), dt.date(2025, 1, 9)),
    4: data.SiteEvent(4, "Open", dt.date(2025, 2, 1), dt.date(2025, 2, 1), "x"),
}
REGISTER = {7: PLAYER, 8: BARE}
JAN = data.SitePeriod(1, "2025-01", dt.date(2025, 1, 1), dt.date(2025, 1, 31),
                      dt.date(2025, 2, 1), "published", "s")  # fmt: skip
FEB = data.SitePeriod(2, 'odd "label"', dt.date(2025, 2, 1), dt.date(2025, 2, 28),
                      dt.date(2025, 3, 1), "published", "s", "cd" * 32, 3)  # fmt: skip


def _row(period_id: int, before: int | None, after: int | None, status: str) -> data.PeriodRow:
    return data.PeriodRow(
        period_id, before, after, -12, 20 if after else None, 3, None if before else 7,
        Decimal("1.5"), Decimal("0.25"), None if after is None else 20, after == 1788, status,
    )  # fmt: skip


def _game(game_id: int, event_id: int, opponent: int, white: bool, **kw: object) -> data.CardGame:
    values: dict[str, object] = {
        "period_id": 1,
        "game_id": game_id,
        "event_id": event_id,
        "played_on": dt.date(2025, 1, 3),
        "round": "1.2",
        "white": white,
        "opponent_id": opponent,
        "own_rating": 1800,
        "opponent_rating": 1750,
        "difference": 50,
        "score": Decimal("0.5"),
        "pd": Decimal("0.57"),
        "dr": Decimal("-0.07"),
        "k_used": 40,
    }
    values.update(kw)
    return data.CardGame(**values)  # type: ignore[arg-type]


def _reference(
    p: data.SitePlayer,
    history: list[tuple[data.SitePeriod, data.PeriodRow]],
    games: list[tuple[data.SitePeriod, data.CardGame]],
) -> bytes:
    """The objects of the README's schema, encoded by :mod:`json` (what the files held)."""

    def text(value: Decimal | None) -> str | None:
        return None if value is None else str(value)

    return dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "kind": "player",
            "list": "rapid",
            "player": {
                "player_id": p.id,
                "name": p.name,
                "fide_id": p.fide_id,
                "federation": p.federation,
                "sex": p.sex,
                "title": p.title,
                "birth_year": p.birth_year,
                "k10": p.k10,
            },
            "history": [
                {
                    "period": period.label,
                    "list_date": period.list_date.isoformat(),
                    "rating_before": r.rating_before,
                    "rating": r.rating_after,
                    "change": None if r.list_status in ("first_rating", "unrated") else r.change,
                    "k_used": r.k_used,
                    "period_games": r.period_games,
                    "total_games": r.total_games,
                    "score": float(r.score),
                    "next_k": r.next_k,
                    "k10": r.k10,
                    "list_status": r.list_status,
                }
                for period, r in history
            ],
            "games": [
                {
                    "period": period.label,
                    "game_id": g.game_id,
                    "played_on": g.played_on.isoformat(),
                    "event_id": g.event_id,
                    "event": EVENTS[g.event_id].name if g.event_id in EVENTS else None,
                    "round": g.round,
                    "color": "white" if g.white else "black",
                    "opponent_id": g.opponent_id,
                    "opponent": REGISTER[g.opponent_id].name if g.opponent_id in REGISTER else None,
                    "own_rating": g.own_rating,
                    "opponent_rating": g.opponent_rating,
                    "difference": g.difference,
                    "score": float(g.score),
                    "pd": text(g.pd),
                    "dr": text(g.dr),
                    "k_used": g.k_used,
                    "k_dr": None if g.k_used is None or g.dr is None else str(g.k_used * g.dr),
                }
                for period, g in games
            ],
        }
    )


def test_a_player_file_is_the_json_of_its_objects() -> None:
    history = [
        (JAN, _row(1, None, 1800, "first_rating")),
        (FEB, _row(2, 1800, 1788, "listed")),
        (FEB, _row(2, 1788, None, "unrated")),
    ]
    games = [
        (JAN, _game(1, 3, 8, True)),
        (JAN, _game(2, 99, 7, False, round=None, own_rating=None, difference=None)),
        (FEB, _game(3, 4, 42, True, pd=None, dr=None, k_used=None, score=Decimal(1))),
        (FEB, _game(4, 4, 8, False, score=Decimal(0), dr=Decimal("0.10"))),
    ]
    texts = JsonTexts(EVENTS, REGISTER)
    for p in (PLAYER, BARE):
        for h, g in ((history, games), ([], []), (history[:1], []), ([], games[1:2])):
            mine = player_json(p, "rapid", h, g, EVENTS, REGISTER, texts)
            assert mine == _reference(p, h, g)
            assert mine == player_json(p, "rapid", h, g, EVENTS, REGISTER)
            json.loads(mine)


def test_fingerprints_are_those_of_the_whole_records() -> None:
    for p in (PLAYER, BARE):
        assert plan.player_fingerprint(p) == plan.fingerprint(*dataclasses.astuple(p))
    for e in EVENTS.values():
        assert plan.event_fingerprint(e) == plan.fingerprint(*dataclasses.astuple(e))


def test_a_list_file_is_the_json_of_its_rows() -> None:
    rows = [
        (data.SiteListRow(7, 2400, 12, 3, 40, 10, True, "listed"), "w"),
        (data.SiteListRow(8, 1500, 0, 0, 5, None, False, "first_rating"), "new"),
        (data.SiteListRow(8, None, -3, 1, 6, 40, False, "unrated"), ""),
    ]
    players = [
        (rank, p.id, p.name, p.fide_id, p.federation, p.sex, p.title, p.birth_year,
         e.rating, None if e.list_status in ("first_rating", "unrated") else e.change,
         e.period_games, e.total_games, e.next_k, e.k10, e.list_status, p.id in {8})
        for rank, (e, _) in enumerate(rows, 1)
        for p in [REGISTER[e.player_id]]
    ]  # fmt: skip
    reference = dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "kind": "list",
            "list": "standard",
            "period": FEB.label,
            "list_date": FEB.list_date.isoformat(),
            "seal": FEB.seal,
            "seal_version": FEB.seal_version,
            "columns": LIST_COLUMNS,
            "players": players,
        }
    )
    texts = JsonTexts(EVENTS, REGISTER)
    assert list_json(FEB, "standard", rows, REGISTER, {8}, texts) == reference
    assert list_json(FEB, "standard", rows, REGISTER, {8}) == reference
    assert list_json(FEB, "standard", [], REGISTER, set()) == dumps(
        {**json.loads(reference), "players": []}
    )
