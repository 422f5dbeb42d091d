"""Pife & Cacheta: the Brazilian rummy games, played with friends in the browser."""
