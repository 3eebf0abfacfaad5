# The bot in a small image; the database lives on a volume.

# The fast core (the C extensions of the rules engine and the search, setup.py) is built in a
# full image, which has the C compiler the slim one lacks; both are the same Python on Debian
# bookworm, so the extensions run unchanged in the slim image.
FROM python:3.11-bookworm AS native
WORKDIR /app
COPY setup.py ./
COPY bot ./bot
RUN pip install --no-cache-dir "setuptools>=68" \
    && python setup.py build_ext --inplace --force

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TAFL_DATABASE=/data/tafl.sqlite3

WORKDIR /app
COPY pyproject.toml README.md setup.py MANIFEST.in ./
COPY --from=native /app/bot ./bot
COPY assets ./assets
# Editable, so the bundled assets/ next to bot/ are found at run time; TAFL_NO_NATIVE because
# the fast core is built already (there is no compiler here). The status check fails the build
# unless the fast core is in use and matches its sources.
RUN TAFL_NO_NATIVE=1 pip install --no-cache-dir -e . \
    && python -m bot.native status --strict \
    && useradd --create-home --uid 10001 tafl \
    && mkdir -p /data && chown tafl /data

USER tafl
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
