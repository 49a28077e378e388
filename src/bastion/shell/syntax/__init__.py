"""Shell syntax: tree-sitter parsing (failing closed), decoded words, peeled wrappers,
literal output, the validators. Imports nothing from ``catalog`` or ``meaning``."""
