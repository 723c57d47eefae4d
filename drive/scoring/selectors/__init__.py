"""Reads of the evening, one module per audience: table (phones), console (organiser), results (everyone)."""
