"""Rating: the rate use case (:mod:`.rate`) and its collaborators: the period plan
(:mod:`.plan`), the standings between periods (:mod:`.state`), the games each period selects
(:mod:`.games`) and the row writer, carried rows copied in SQL (:mod:`.write`); the periods a
correction marks (:mod:`.marks`), an event's given period (:mod:`.periods`), the superseded
lists (:mod:`.supersede`), the withdrawn ones (:mod:`.unrate`), the seals of published lists
(:mod:`.seals`), PostgreSQL's bulk paths (:mod:`.postgres`) and the rebuild that rates the
stored inputs afresh (:mod:`.rebuild`).

May import: :mod:`ratings.service.shared` only.
"""
