"""The file formats (ratings.io): CSV, TRF, PGN, FIDE's lists read and written, no database."""
