"""Discord's length limits and the helpers that make any text fit them, defined with the rest
of the Discord edge in :mod:`.table`; kept here for the features not yet sending through it."""

from __future__ import annotations

from .table import ATTACHMENT as ATTACHMENT
from .table import CHOICE_NAME as CHOICE_NAME
from .table import CONTENT as CONTENT
from .table import ELLIPSIS as ELLIPSIS
from .table import EMBED_AUTHOR as EMBED_AUTHOR
from .table import EMBED_DESCRIPTION as EMBED_DESCRIPTION
from .table import EMBED_FIELD_NAME as EMBED_FIELD_NAME
from .table import EMBED_FIELD_VALUE as EMBED_FIELD_VALUE
from .table import EMBED_FOOTER as EMBED_FOOTER
from .table import EMBED_TITLE as EMBED_TITLE
from .table import EMBED_TOTAL as EMBED_TOTAL
from .table import MAX_CHOICES as MAX_CHOICES
from .table import SELECT_DESCRIPTION as SELECT_DESCRIPTION
from .table import SELECT_LABEL as SELECT_LABEL
from .table import GameNumber as GameNumber
from .table import clip as clip
from .table import fit_embed as fit_embed
