"""What a parsed command does: the files it touches (``paths``), what they are
(``targets``), the per-command checks, and the analysis that composes them."""
