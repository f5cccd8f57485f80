"""The progress bar helper: stderr, only on a terminal, only after a second of work."""

from __future__ import annotations

import io

from ratings.cli.progress import Progress


class _Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class _Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_short_work_shows_no_bar() -> None:
    out, clock = _Terminal(), _Clock()
    with Progress(3, "Rating", file=out, clock=clock) as bar:
        for label in ("2026-01", "2026-02", "2026-03"):
            clock.now += 0.2
            bar.advance(item=label)
    assert out.getvalue() == ""


def test_bar_appears_after_a_second_with_the_steps_done() -> None:
    out, clock = _Terminal(), _Clock()
    with Progress(4, "Rating", file=out, clock=clock) as bar:
        clock.now = 0.5
        bar.advance(item="2026-01")
        assert out.getvalue() == ""
        clock.now = 1.5
        bar.advance(item="2026-02")
        clock.now = 2.0
        bar.advance(item="2026-03")
    text = out.getvalue()
    assert "Rating" in text
    assert "3/4" in text
    assert "2026-03" in text


def test_no_bar_when_not_a_terminal() -> None:
    out, clock = io.StringIO(), _Clock()
    with Progress(2, "Rating", file=out, clock=clock) as bar:
        clock.now = 5.0
        bar.advance()
        bar.advance()
    assert out.getvalue() == ""
