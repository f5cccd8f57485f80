"""The data beside the pages: ``lists/YYYY-MM.json`` (a list) and ``players/ID.json`` (a
player's history and games), for a club's own website or a script (README, "Publishing the
website", the schema).

The keys are the schema's names (``total_games``, ``next_k``, ``k_used``, ``period_games``,
``list_status``, ``dr`` ...), in a fixed order; :data:`SCHEMA_VERSION` changes when a key is
renamed, removed or changes its meaning (a new key does not change it). UTF-8, not escaped
to ASCII: a name is a JSON string, whatever it holds. Exact decimals (``pd``, ``dr``,
``k_dr``) are strings, as ``ratings card --format json`` writes them; a score (in halves) is
a number.

A player's file holds what the player's page holds (so that it is rewritten exactly when the
page is, :mod:`ratings.site.build`): the periods that show on the page, not the quiet ones
between them (no game, no new rating, state or K: the entry before still holds).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Protocol

from ratings.service.reading import publish as data

__all__ = ["LIST_COLUMNS", "SCHEMA_VERSION", "JsonTexts", "dumps", "list_json", "player_json"]

SCHEMA_VERSION = 1


def dumps(value: object) -> bytes:
    """``value`` as the site's JSON: UTF-8, keys in the order given, one line."""
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _player(p: data.SitePlayer) -> dict[str, object]:
    return {
        "player_id": p.id,
        "name": p.name,
        "fide_id": p.fide_id,
        "federation": p.federation,
        "sex": p.sex,
        "title": p.title,
        "birth_year": p.birth_year,
    }


def _change(status: str, change: int) -> int | None:
    """As ``ratings history --format json``: none where there was no rating before."""
    return None if status in ("first_rating", "unrated") else change


def _name(found: data.SitePlayer | data.SiteEvent | None) -> str | None:
    return None if found is None else found.name


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _k_dr(k: int | None, dr: Decimal | None) -> str | None:
    return None if k is None or dr is None else str(k * dr)


LIST_COLUMNS = (
    "rank", "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year",
    "rating", "change", "period_games", "total_games", "next_k", "k10", "list_status",
    "inactive",
)  # fmt: skip
"""The values of each row of a list's ``players``, in this order (its ``columns``)."""


def list_json(
    period: data.SitePeriod,
    time_control: str,
    rows: Sequence[tuple[data.SiteListRow, str]],
    register: dict[int, data.SitePlayer],
    inactive: set[int],
    texts: JsonTexts | None = None,
) -> bytes:
    """One published list, in the list's order (rank 1 first): ``columns`` names the values
    of each row of ``players`` (a list of 5,000 objects repeats every key 5,000 times; as
    rows it is a third of the size, and as fast to read: ``dict(zip(columns, row))``).

    The bytes are those of :func:`dumps` of that object, the rows written from their values'
    JSON texts (each player's register columns made once a publish, in ``texts``)."""
    t = texts if texts is not None else JsonTexts({}, register)
    entry, status = t.list_player, t.text
    players = [
        f"[{rank},{entry(e.player_id)},{_num(e.rating)},"
        f"{_num(_change(e.list_status, e.change))},{_num(e.period_games)},"
        f"{_num(e.total_games)},{_num(e.next_k)},{_bool(e.k10)},{status(e.list_status)},"
        f"{_bool(e.player_id in inactive)}]"
        for rank, (e, _) in enumerate(rows, 1)
    ]
    head = dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "kind": "list",
            "list": time_control,
            "period": period.label,
            "list_date": period.list_date.isoformat(),
            "seal": period.seal,
            "seal_version": period.seal_version,
            "columns": LIST_COLUMNS,
            "players": [],
        }
    )
    # head ends with "[]}\n": the rows go between the brackets
    return head[:-3] + f"{','.join(players)}]}}\n".encode()


def player_json(
    p: data.SitePlayer,
    time_control: str,
    history: Sequence[tuple[data.SitePeriod, data.PeriodRow]],
    games: Sequence[tuple[data.SitePeriod, data.CardGame]],
    events: dict[int, data.SiteEvent],
    register: dict[int, data.SitePlayer],
    texts: JsonTexts | None = None,
) -> bytes:
    """A player: the register entry, the history (oldest first) and the rated games (in
    the order played).

    The bytes are those of :func:`dumps` of the object the schema describes (the README's
    keys, in its order), written row by row from the values' JSON texts: a player page's
    file holds hundreds of games, and building a dict per game for :mod:`json` took as long
    as rendering the page. ``texts`` keeps the JSON of the names and labels the pages of one
    publish share (each made once)."""
    t = texts if texts is not None else JsonTexts(events, register)
    period_text = t.period
    head = dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "kind": "player",
            "list": time_control,
            "player": {**_player(p), "k10": p.k10},
        }
    )
    rows = [
        f'{{"period":{period_text(period)},"rating_before":{_num(r.rating_before)},'
        f'"rating":{_num(r.rating_after)},'
        f'"change":{_num(_change(r.list_status, r.change))},"k_used":{_num(r.k_used)},'
        f'"period_games":{_num(r.period_games)},"total_games":{_num(r.total_games)},'
        f'"score":{float(r.score)!r},"next_k":{_num(r.next_k)},'
        f'"k10":{_bool(r.k10)},"list_status":{_str(r.list_status)}}}'
        for period, r in history
    ]
    event, opponent, text = t.event, t.player, t.text
    played = [
        f'{{"period":{text(period.label)},"game_id":{_num(g.game_id)},'
        f'"played_on":"{g.played_on.isoformat()}","event_id":{_num(g.event_id)},'
        f'"event":{event(g.event_id)},"round":{text(g.round)},'
        f'"color":{_WHITE if g.white else _BLACK},"opponent_id":{_num(g.opponent_id)},'
        f'"opponent":{opponent(g.opponent_id)},"own_rating":{_num(g.own_rating)},'
        f'"opponent_rating":{_num(g.opponent_rating)},"difference":{_num(g.difference)},'
        f'"score":{float(g.score)!r},"pd":{_decimal(g.pd)},"dr":{_decimal(g.dr)},'
        f'"k_used":{_num(g.k_used)},"k_dr":{_k_dr_text(g.k_used, g.dr)}}}'
        for period, g in games
    ]
    # head ends with "}}\n" (the player object, then the file's object): the lists follow
    body = f',"history":[{",".join(rows)}],"games":[{",".join(played)}]}}\n'
    return head[:-2] + body.encode("utf-8")


_str = json.encoder.encode_basestring
"""A string as :func:`dumps` writes it (not escaped to ASCII)."""
_WHITE = _str("white")
_BLACK = _str("black")


def _num(value: int | None) -> str:
    """An integer (or None) as JSON; never a bool (those are :func:`_bool`)."""
    return "null" if value is None else int.__repr__(value)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _decimal(value: Decimal | None) -> str:
    return "null" if value is None else _str(str(value))


def _k_dr_text(k: int | None, dr: Decimal | None) -> str:
    return "null" if k is None or dr is None else _str(str(k * dr))


class _Named(Protocol):
    @property
    def name(self) -> str: ...


def _json_name(made: dict[int, str], records: Mapping[int, _Named], record_id: int) -> str:
    """The name of ``records[record_id]`` as JSON (``null`` for an id it lacks), made once into
    ``made``."""
    found = made.get(record_id)
    if found is None:
        record = records.get(record_id)
        found = made[record_id] = "null" if record is None else _str(record.name)
    return found


class JsonTexts:
    """The JSON of the texts the player files of one publish share: periods (label and list
    date), event and player names, rounds; each made once."""

    def __init__(
        self, events: dict[int, data.SiteEvent], register: dict[int, data.SitePlayer]
    ) -> None:
        self._events = events
        self._register = register
        self._periods: dict[int, str] = {}
        self._event_names: dict[int, str] = {}
        self._player_names: dict[int, str] = {}
        self._texts: dict[str | None, str] = {}
        self._list_players: dict[int, str] = {}

    def period(self, period: data.SitePeriod) -> str:
        """``"LABEL","list_date":"YYYY-MM-DD"``: the two keys a history row starts with."""
        found = self._periods.get(period.id)
        if found is None:
            found = self._periods[period.id] = (
                f'{_str(period.label)},"list_date":{_str(period.list_date.isoformat())}'
            )
        return found

    def event(self, event_id: int) -> str:
        return _json_name(self._event_names, self._events, event_id)

    def player(self, player_id: int) -> str:
        return _json_name(self._player_names, self._register, player_id)

    def list_player(self, player_id: int) -> str:
        """A player's register columns of a list's row (``player_id`` to ``birth_year``)."""
        found = self._list_players.get(player_id)
        if found is None:
            p = self._register[player_id]
            row = (p.id, p.name, p.fide_id, p.federation, p.sex, p.title, p.birth_year)
            found = self._list_players[player_id] = dumps(row)[1:-2].decode("utf-8")
        return found

    def text(self, value: str | None) -> str:
        found = self._texts.get(value)
        if found is None:
            found = self._texts[value] = "null" if value is None else _str(value)
        return found
