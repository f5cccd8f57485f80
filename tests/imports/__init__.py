"""The imports (ratings.service.imports): CSV, TRF, PGN and FIDE lists into the database."""
