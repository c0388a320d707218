"""Qt item models for the library, chat and sources."""
