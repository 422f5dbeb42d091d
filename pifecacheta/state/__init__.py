"""Reflex states: this browser's session (language, deck, identity), the lobby, one table."""
