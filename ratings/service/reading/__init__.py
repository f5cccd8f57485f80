"""Reading: what the commands and the site show. Rating lists and the preview
(:mod:`.reports`), a player's history, card and performance (:mod:`.cards`), the register
entry ``player show`` prints (:mod:`.summary`), events and players browsed
(:mod:`.browse`), crosstables (:mod:`.crosstable`), ``check`` and its field-by-field diff
(:mod:`.check`, :mod:`.list_diff`), ``verify`` of the seals (:mod:`.verify`), ``reconcile``
with FIDE's list (:mod:`.reconcile`), ``whatif`` (:mod:`.whatif`), ``sql`` (:mod:`.sql`),
the TRF export (:mod:`.exports`), the site's read model (:mod:`.publish`) and the demo
database (:mod:`.demo`). Nothing here writes the ratings, except the demo that builds its
own file.

May import: every domain.
"""
