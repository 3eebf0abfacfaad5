# The bot in a small image; the database lives on a volume.

# The rules engine and the AI's search are compiled with mypyc (about twice the search speed) in
# a full image, which has the C compiler the slim one lacks; both are the same Python on Debian
# bookworm, so the extensions run unchanged in the slim image.
FROM python:3.11-bookworm AS native
WORKDIR /app
COPY bot ./bot
RUN pip install --no-cache-dir "mypy>=1.10" "setuptools>=68" \
    && python -m bot.native build

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TAFL_DATABASE=/data/tafl.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY --from=native /app/bot ./bot
COPY assets ./assets
# Editable, so the bundled assets/ next to bot/ are found at run time. The status check fails the
# build if the compiled modules are missing or do not match their sources.
RUN pip install --no-cache-dir -e . \
    && python -m bot.native status --strict \
    && useradd --create-home --uid 10001 tafl \
    && mkdir -p /data && chown tafl /data

USER tafl
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
