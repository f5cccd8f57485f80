"""The published website (ratings.site): publish, pages, downloads, charts, browser tests."""
