"""The shared kernel every rule system builds on: bases, bands, ids, shared edits, limits,
translations and the words a player may write. It imports no rule system (they live in
`app.systems`), and nothing of the web or the database."""
