"""The register: players added, edited and listed (:mod:`.players`), a PLAYER or EVENT
argument to the one it names (:mod:`.lookup`, :mod:`.events`), who is who for the matcher
(:mod:`.identity`), the aliases it remembers (:mod:`.aliases`), possible duplicates
(:mod:`.duplicates`) and merges (:mod:`.merge`).

May import: :mod:`ratings.service.shared` and :mod:`ratings.service.rating`.
"""
