"""Titles and norms (ratings.service.titles) through the commands and the site."""
