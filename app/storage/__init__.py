"""Storage: the engine and sessions, the tables, the migrations runner, readiness."""
