"""Translation: the language a message is written in (:mod:`.language`: gettext catalogues and
CLDR's numbers, lists and durations, through Babel) and the catalogues themselves
(``locales/``). A library layer under the Discord layer: it knows nothing of Discord or of the
bot's features, only of languages; the Discord layer marks its sentences and extracts them."""
