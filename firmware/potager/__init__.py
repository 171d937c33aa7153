"""Potager: a tabletop scoring device for garden board games."""

VERSION = "0.1.0"
