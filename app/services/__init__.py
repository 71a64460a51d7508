"""The use-cases: rosters, their revisions, the devices that remember them, the creation limit.

Each caller imports the module it uses; this package re-exports nothing."""
