"""Rating periods (ratings.service.rating): rate, unrate, seals, rebuilds, scenarios."""
