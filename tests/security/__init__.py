"""Attacks the project defends against: one test module per kind of hostile input."""
