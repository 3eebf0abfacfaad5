"""The process's services, below the client: configuration, logs, identify pacing, the loop
monitor, metrics, the health endpoint and the heartbeat's timing. They know nothing of the
client or anything above it (they take callbacks and small protocols); the entry point that
builds the process from them and the client is ``main``."""
