"""File formats: parse CSV, TRF and PGN into plain data; no database access here."""
