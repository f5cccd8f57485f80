"""The site's assets: the style sheet and scripts of the package, the Vega bundle and its
license (made by vl-convert, reused while its version stays)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

from ratings.site import chart
from ratings.site.output import SiteFolder

__all__ = ["VEGA", "VEGA_LICENSE", "write_assets"]

_STATIC = ("site.css", "site.js", "chart.js", "calc.js", "search.js")
VEGA = "assets/vega.js"
VEGA_LICENSE = "assets/vega-license.txt"


def write_assets(out: SiteFolder) -> Callable[[], None]:
    """Write the assets into ``out``; returns what completes them (call it after the pages):
    the Vega bundle takes seconds to make, on a thread of its own (vl-convert releases the
    GIL) while the pages are rendered."""
    static = resources.files("ratings.site").joinpath("static")
    for name in _STATIC:
        out.put(f"assets/{name}", static.joinpath(name).read_bytes())
    version = chart.bundle_version()
    old = out.old or {}
    if old.get("assets") == version and out.keep(VEGA) and out.keep(VEGA_LICENSE):
        return lambda: None
    maker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vega-bundle")
    bundle = maker.submit(chart.vega_bundle)
    maker.shutdown(wait=False)
    return lambda: _finish_assets(out, version, bundle.result())


def _finish_assets(out: SiteFolder, version: str, bundle: str) -> None:
    out.put(VEGA, bundle.encode("utf-8"))
    notice = (
        "assets/vega.js bundles Vega, Vega-Lite and Vega-Embed (BSD-3-Clause, "
        "Copyright (c) the University of Washington Interactive Data Lab and the Vega "
        "contributors) and the libraries they use (d3 modules: ISC; others: MIT or "
        f"BSD), as bundled by vl-convert-python {version}, whose license follows.\n\n"
    )
    out.put(VEGA_LICENSE, (notice + chart.bundle_license()).encode("utf-8"))
