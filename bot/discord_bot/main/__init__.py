"""The entry point, above the client: ``python -m bot`` (:mod:`.launcher`: settings, logging,
the database, the shards' leases, the health endpoint, then the bot), ``python -m bot cluster``
(:mod:`.cluster` and its :mod:`.supervisor`: the shards over several processes) and ``python -m
bot health`` (:mod:`.probe`: the check of the running processes). The process's services that
the client uses (configuration, logs, pacing, metrics, health) are below it, in ``runtime``."""
