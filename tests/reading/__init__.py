"""The reading commands (ratings.service.reading): browse, check, export, sql, whatif..."""
