"""structlog set-up for the commands: key-value lines on stderr, or JSON lines with --log-json."""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(*, json_lines: bool = False, level: str = "warning") -> None:
    """Log events at `level` and above to stderr (stdout stays for the command's own output)."""
    renderer = structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,  # run_id and thread_id of the sample being worked on
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level.upper())),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
    # The connection pool logs every failed reconnect over several lines; while a database is away
    # the run says so once itself (graph.running.outages.Outages), so only the pool's errors are shown.
    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
