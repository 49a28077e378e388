"""Per-family checks of the shell analyser (see ``semantics.py``)."""
