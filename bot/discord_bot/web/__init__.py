"""The web board: the live board served by the bot's own HTTP server (``TAFL_PUBLIC_URL``),
in a browser and inside Discord as an Activity."""
