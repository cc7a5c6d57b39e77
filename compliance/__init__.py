"""compliance package."""
