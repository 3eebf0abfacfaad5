"""One cog per feature; every command lands under ``/tafl``."""
