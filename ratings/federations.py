"""FIDE's federation codes, to tell a federation from a club code in an input file.

FIDE writes a player's federation as a three-letter code, mostly the IOC's, with its own
exceptions (``ENG``, ``SCO``, ``WLS``, ``GCI``, ``JCI``, ``IOM``, ``AHO``, ``KOS``, ``TPE``)
and ``FID`` for players under the FIDE flag. Real tournament files also hold other
things in that column: an Irish Krause file had club codes such as ``C.C``. An import keeps
such a value as written and warns; this list is how it knows.

Source: the federations on FIDE's rating site (https://ratings.fide.com/top_federations.phtml,
as listed in lichess-org/lila ``modules/fide/src/main/Federation.scala``, which names that
page as its source), 206 codes. Codes of federations that no longer exist (``YUG``, ``URS``,
``TCH``, ``GDR``...) are not in it: an old file that holds one gets the warning, and keeps
the code.

Pure data: no I/O.
"""

from __future__ import annotations

__all__ = ["FIDE_FEDERATIONS", "is_fide_federation"]

FIDE_FEDERATIONS = frozenset(
    (
        "AFG", "AHO", "ALB", "ALG", "AND", "ANG", "ANT", "ARG", "ARM", "ARU", "AUS", "AUT", "AZE",
        "BAH", "BAN", "BAR", "BDI", "BEL", "BER", "BHU", "BIH", "BIZ", "BLR", "BOL", "BOT", "BRA",
        "BRN", "BRU", "BUL", "BUR", "CAF", "CAM", "CAN", "CAY", "CGO", "CHA", "CHI", "CHN", "CIV",
        "CMR", "COD", "COL", "COM", "CPV", "CRC", "CRO", "CUB", "CYP", "CZE", "DEN", "DJI", "DMA",
        "DOM", "ECU", "EGY", "ENG", "ERI", "ESA", "ESP", "EST", "ETH", "FAI", "FID", "FIJ", "FIN",
        "FRA", "GAB", "GAM", "GCI", "GEO", "GEQ", "GER", "GHA", "GRE", "GRL", "GRN", "GUA", "GUM",
        "GUY", "HAI", "HKG", "HON", "HUN", "INA", "IND", "IOM", "IRI", "IRL", "IRQ", "ISL", "ISR",
        "ISV", "ITA", "IVB", "JAM", "JCI", "JOR", "JPN", "KAZ", "KEN", "KGZ", "KOR", "KOS", "KSA",
        "KUW", "LAO", "LAT", "LBA", "LBN", "LBR", "LCA", "LES", "LIE", "LTU", "LUX", "MAC", "MAD",
        "MAR", "MAS", "MAW", "MDA", "MDV", "MEX", "MGL", "MKD", "MLI", "MLT", "MNC", "MNE", "MOZ",
        "MRI", "MTN", "MYA", "NAM", "NCA", "NCL", "NED", "NEP", "NGR", "NIG", "NOR", "NRU", "NZL",
        "OMA", "PAK", "PAN", "PAR", "PER", "PHI", "PLE", "PLW", "PNG", "POL", "POR", "PUR", "QAT",
        "ROU", "RSA", "RUS", "RWA", "SCO", "SEN", "SEY", "SGP", "SKN", "SLE", "SLO", "SMR", "SOL",
        "SOM", "SRB", "SRI", "SSD", "STP", "SUD", "SUI", "SUR", "SVK", "SWE", "SWZ", "SYR", "TAN",
        "TGA", "THA", "TJK", "TKM", "TLS", "TOG", "TPE", "TTO", "TUN", "TUR", "UAE", "UGA", "UKR",
        "URU", "USA", "UZB", "VAN", "VEN", "VIE", "VIN", "WLS", "YEM", "ZAM", "ZIM",
    )
)  # fmt: skip
"""Upper-case three-letter codes."""


def is_fide_federation(code: str) -> bool:
    """Whether ``code`` (any case, surrounding blanks ignored) is one of FIDE's federations."""
    return code.strip().upper() in FIDE_FEDERATIONS
