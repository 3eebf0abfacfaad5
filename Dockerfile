# The bot in a small image; the database lives on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TAFL_DATABASE=/data/tafl.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY assets ./assets
# Editable, so the bundled assets/ next to bot/ are found at run time.
RUN pip install --no-cache-dir -e . \
    && useradd --create-home --uid 10001 tafl \
    && mkdir -p /data && chown tafl /data

USER tafl
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
