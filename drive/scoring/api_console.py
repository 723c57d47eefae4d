"""REST API of the evening (see the module name for the audience)."""
