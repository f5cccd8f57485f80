"""The bulk paths' pause of Python's cyclic garbage collector (no dependencies: the service
and :mod:`ratings.rating_lists`, which must import fast, both use it)."""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")


def without_cycle_collection(work: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``work`` with Python's cyclic garbage collector paused (reference counting still
    frees everything that is not in a cycle), then restore it as it was.

    For the bulk paths: a rate allocates millions of tuples that form no cycles, and each of
    the collector's full passes walks every one of them alive. On the 1,000,000-game benchmark
    the collector ran 135 full passes and freed 633 objects; paused, the rate took 46.0 s
    instead of 56.9 s (one run each, bench/RESULTS.md). Whatever cycles the run leaves are
    collected after it."""

    @functools.wraps(work)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return work(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return paused
