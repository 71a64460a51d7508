"""The JSON API routes: rule systems and pricing, stored rosters, exports and imports, the
calculators, health, and the API documentation."""
