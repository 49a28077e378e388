"""injection package."""
