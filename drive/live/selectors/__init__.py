"""Reads of the room's screen: its link and chime, and the event a link opens."""
