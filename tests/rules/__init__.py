"""The pure rules (ratings.rules, ratings.tiebreaks): FIDE's arithmetic without a database."""
