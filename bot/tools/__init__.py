"""Tools that work across the layers, run by hand beside the bot: they may use the AI and
storage together, which neither may use of the other."""
