"""A Discord bot for tafl games: Tablut, Brandubh, Fidchell and their relatives."""

__version__ = "0.1.0"
