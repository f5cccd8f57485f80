"""Corrections: games added, edited and voided (:mod:`.games`), an event's edits and its
rating period (:mod:`.edits`), events moved in time (:mod:`.moves`), the corrections log
read (:mod:`.log`) and what it records of a row (:mod:`.logged`), ``undo``
(:mod:`.undo`) and the rating system's settings (:mod:`.settings`). Each marks the rated
periods it touches for a re-rate.

May import: every domain before it (:mod:`ratings.service.shared`, ``rating``,
``register``, ``imports``, ``titles``).
"""
