"""The online-play pages."""
