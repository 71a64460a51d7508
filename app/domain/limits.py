"""Size limits shared by every rule system's roster document (the API enforces them)."""

MAX_NAME = 120
MAX_NOTE = 2000
MAX_UNITS = 500
MAX_LINES = 20
MAX_FIGURES = 100_000
MAX_ENGINES = 100
MAX_ENGINE_COUNT = 1_000
MAX_POINTS_LIMIT = 10_000_000
