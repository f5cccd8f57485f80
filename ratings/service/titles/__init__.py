"""Titles: the title norms of a player's events under the FIDE Title Regulations
(:mod:`.norms`, the arithmetic in :mod:`ratings.rules.norms`) and what they read from the
database (:mod:`.reads`).

May import: :mod:`ratings.service.shared`, :mod:`ratings.service.rating`,
:mod:`ratings.service.register` and :mod:`ratings.service.imports`.
"""
