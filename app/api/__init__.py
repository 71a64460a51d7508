"""The JSON API routes: rule systems and pricing, stored rosters, exports and imports,
health, and the API documentation."""
