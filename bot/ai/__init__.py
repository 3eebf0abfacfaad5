"""The tafl AI: a principal variation search with tafl tactics, at four levels.

- :class:`AIService` runs searches in worker processes for the bot's event loop.
- :func:`think` / :class:`Searcher` search a :class:`bot.engine.Board` directly.
- ``python -m bot.ai otep`` speaks the OpenTafl Engine Protocol;
  ``python -m bot.ai.arena`` plays matches between levels.
"""

from .evaluation import DEFAULT_WEIGHTS, Evaluator, Weights
from .levels import DEFAULT_LEVEL, LEVEL_SETTINGS, LEVELS, Level, describe_levels, get_level
from .player import choose_move_text, think
from .search import MATE, Searcher, SearchResult, search_position
from .service import AIError, AIService

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_WEIGHTS",
    "LEVELS",
    "LEVEL_SETTINGS",
    "MATE",
    "AIError",
    "AIService",
    "Evaluator",
    "Level",
    "SearchResult",
    "Searcher",
    "Weights",
    "choose_move_text",
    "describe_levels",
    "get_level",
    "search_position",
    "think",
]
