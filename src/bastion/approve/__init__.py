"""approve package."""
