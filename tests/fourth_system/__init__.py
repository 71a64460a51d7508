"""A tiny fourth rule system, "Skirmish", kept as a test package: two troop types and one rule,
to prove that a rule system is one folder and one registry line (tests/web/test_fourth_system.py
copies it into a copy of the app and drives it through its pages and API)."""
