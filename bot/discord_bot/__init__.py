"""The Discord layer: slash commands, buttons and timers on top of the engine, AI, renderer and
storage. Nothing else in the project imports it."""
