"""The manifest of a published site (``DIR/.ratings-site.json``): its name and format, the
file names a publish writes, and the check of a manifest read back."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from ratings.errors import OutputFileError

__all__ = [
    "FOLDERS",
    "MANIFEST",
    "MANIFEST_FORMAT",
    "MAX_MANIFEST_BYTES",
    "digest",
    "is_our_name",
    "manifest_bytes",
    "manifest_problem",
    "our_files",
    "read_manifest",
]

MANIFEST = ".ratings-site.json"
"""The manifest: what an earlier publish wrote (file hashes) and from which data."""

MANIFEST_FORMAT = 1
MAX_MANIFEST_BYTES = 256 << 20
"""The largest manifest read (a larger one is damaged)."""
FOLDERS = ("assets", "events", "lists", "players")
"""The subfolders of a site; ``""`` stands for DIR itself."""

_OUR_NAME = re.compile(
    r"(?:index\.html|players\.html|events\.html|seals\.json"
    r"|calculators\.html"
    r"|players/[0-9]{1,19}\.html"
    r"|events/[0-9]{1,19}\.html"
    r"|lists/[0-9]{4}-[0-9]{2}\.(?:html|csv|txt)"
    r"|lists/[0-9]{4}-[0-9]{2}(?:\.json|-top\.(?:html|csv)|-sealed\.csv)"
    r"|players/[0-9]{1,19}\.json"
    r"|assets/[a-z0-9][a-z0-9.-]{0,60}\.(?:css|js|txt))"
)
"""Every name a publish writes (and so may delete); a manifest entry not like these is
ignored, whatever it says."""

_HEX = re.compile(r"[0-9a-f]+")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _pairs(value: object, check: Any) -> bool:
    """Whether ``value`` is a list of two items that pass ``check(first, second)``."""
    return isinstance(value, list) and len(value) == 2 and bool(check(*value))


def manifest_problem(data: object) -> str | None:
    """What is wrong with a manifest read as JSON (None: nothing). Every field a publish
    writes is checked for its shape, so that a damaged one is refused by name instead of
    failing half-way (a mask that is not hexadecimal raised ValueError)."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if data.get("generator") != "ratings":
        return "not written by ratings"
    if data.get("format") != MANIFEST_FORMAT:
        return (
            f"written by another version of ratings (format {data.get('format')!r}, this "
            f"one writes {MANIFEST_FORMAT})"
        )
    if not isinstance(data.get("complete", False), bool):
        return "complete: not true or false"
    for key in ("list", "build", "assets"):
        if key in data and not isinstance(data[key], str):
            return f"{key}: not a text"
    if "periods" in data and not (
        isinstance(data["periods"], list)
        and all(
            _pairs(x, lambda a, b: isinstance(a, str) and isinstance(b, str))
            for x in data["periods"]
        )
    ):
        return "periods: not a list of [label, state]"
    checks = {
        "files": (
            "[sha256, size]",
            lambda a, b: isinstance(a, str) and _SHA256.fullmatch(a) and type(b) is int and b >= 0,
        ),
        "players": (
            "[fingerprint, hex mask]",
            lambda a, b: isinstance(a, str) and isinstance(b, str) and _HEX.fullmatch(b),
        ),
    }
    for key in ("files", "players", "events"):
        if key not in data:
            continue
        entries = data[key]
        if not isinstance(entries, dict):
            return f"{key}: not an object"
        for name, value in entries.items():
            if key == "events":
                if not isinstance(value, str):
                    return f"events: {name!r}: not a fingerprint"
            elif not _pairs(value, checks[key][1]):
                return f"{key}: {name!r}: not {checks[key][0]}"
    return None


def is_our_name(key: str) -> bool:
    """Whether ``key`` (``folder/name``) is a file name publish writes."""
    return _OUR_NAME.fullmatch(key) is not None


def digest(data: bytes) -> str:
    """The content hash recorded in the manifest."""
    return hashlib.sha256(data).hexdigest()


def manifest_bytes(body: dict[str, Any]) -> bytes:
    """The manifest file of ``body`` (the generator and format first)."""
    head = {"generator": "ratings", "format": MANIFEST_FORMAT}
    return (json.dumps(head | body, separators=(",", ":")) + "\n").encode("utf-8")


def read_manifest(root: int, shown: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The manifest in the folder ``root`` (a descriptor; ``shown`` names it): (the
    manifest, None) for a site; (None, None) without one; (None, what is wrong) for a
    damaged one.

    :raises OutputFileError: when it cannot be read.
    """
    try:
        fd = os.open(MANIFEST, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=root)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "a symlink, not a file"
        raise OutputFileError(f"cannot read '{shown / MANIFEST}': {exc.strerror or exc}") from exc
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None, "not a file"
        raw = f.read(MAX_MANIFEST_BYTES + 1)
    if len(raw) > MAX_MANIFEST_BYTES:
        return None, f"larger than {MAX_MANIFEST_BYTES:,} bytes"
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None, "not valid JSON"
    problem = manifest_problem(data)
    return (None, problem) if problem is not None else (data, None)


def our_files(manifest: dict[str, Any] | None) -> dict[str, list[Any]]:
    """The files a manifest lists that are ours (:func:`is_our_name`):
    ``key -> [sha256, size]``."""
    listed = (manifest or {}).get("files")
    if not isinstance(listed, dict):
        return {}
    return {
        k: v
        for k, v in listed.items()
        if isinstance(k, str) and is_our_name(k) and isinstance(v, list) and len(v) == 2
    }
