"""The folder a publish writes (:class:`ratings.site.output.SiteFolder`): what it does to the
process around its writer threads."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ratings.site import output
from ratings.site.output import SiteFolder


def test_the_switch_interval_is_short_while_the_writers_run_and_restored_after(
    tmp_path: Path,
) -> None:
    before = sys.getswitchinterval()
    with SiteFolder(tmp_path / "site", force=False, database=None) as out:
        assert sys.getswitchinterval() == before  # no writer yet: untouched
        out.put("index.html", b"<!doctype html>\n")
        assert sys.getswitchinterval() == pytest.approx(min(before, output._SWITCH_INTERVAL))
        out.flush()
    assert sys.getswitchinterval() == before
    assert (tmp_path / "site" / "index.html").read_bytes() == b"<!doctype html>\n"


def test_the_switch_interval_is_restored_after_a_refused_write(tmp_path: Path) -> None:
    before = sys.getswitchinterval()
    with SiteFolder(tmp_path / "site", force=False, database=None) as out:
        out.put("index.html", b"x")
        with pytest.raises(ValueError, match="not a site file name"):
            out.put("../outside.html", b"x")
        assert sys.getswitchinterval() != before
    assert sys.getswitchinterval() == before
    assert not (tmp_path / "outside.html").exists()
