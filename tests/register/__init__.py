"""The register (ratings.service.register, matching, names): players, identity, aliases."""
