"""Progress bars for long commands: on stderr, only on a terminal, only after a second.

A short command prints nothing extra, and output piped to a file or read by a script (or by
click's ``CliRunner``) never contains a bar.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import IO, Any, TextIO

import click

DELAY = 1.0
"""Seconds of work before a bar appears."""


class Progress:
    """A click progress bar of ``total`` steps that stays hidden while the work is short.

    Use as a context manager and call :meth:`advance` after each step; the bar appears at the
    first step that ends more than :data:`DELAY` seconds after the start, and only when
    ``file`` (default: stderr) is a terminal.
    """

    def __init__(
        self,
        total: int,
        label: str,
        *,
        file: TextIO | None = None,
        delay: float = DELAY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.label = label
        self.file: TextIO = file if file is not None else sys.stderr
        self.delay = delay
        self.clock = clock
        self.enabled = total > 0 and _is_terminal(self.file)
        self.started = clock()
        self.done = 0
        self._bar: Any = None
        self._item: str | None = None

    def __enter__(self) -> Progress:
        return self

    def resize(self, total: int) -> None:
        """Set the number of steps once it is known (before the first :meth:`advance`)."""
        self.total = total
        self.enabled = total > 0 and _is_terminal(self.file)

    def advance(self, steps: int = 1, item: str | None = None) -> None:
        """Count ``steps`` more steps done; ``item`` is shown next to the bar (e.g. a period)."""
        self.done += steps
        self._item = item
        if not self.enabled:
            return
        if self._bar is None:
            if self.clock() - self.started <= self.delay:
                return
            self._bar = click.progressbar(
                length=self.total,
                label=self.label,
                file=self.file,
                show_pos=True,
                item_show_func=lambda _: self._item,
            )
            self._bar.__enter__()
            self._bar.update(self.done, item)
            return
        self._bar.update(steps, item)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(exc_type, exc, tb)
            self._bar = None


def _is_terminal(file: IO[Any]) -> bool:
    try:
        return bool(file.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
