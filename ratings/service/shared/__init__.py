"""What every domain of the service may use, and which imports no domain: SQL helpers
(:mod:`.sql`), the settings row (:mod:`.config`), checked text (:mod:`.text`), dates that
may not lie in the future (:mod:`.dates`) and the corrections log's writer (:mod:`.audit`).

May import: :mod:`ratings.models`, :mod:`ratings.rules` and the modules beside
:mod:`ratings.service` (errors, limits, names); no domain package.
"""
