"""Proof under attack: fuzzing, capabilities, headers and limits, hostile content."""
