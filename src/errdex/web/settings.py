"""The site's fixed limits and defaults, in a module light enough for ``errdex --help``."""

from __future__ import annotations

__all__ = ["DEFAULT_ISSUES_URL", "MAX_MATCH_BYTES", "POLL_SECONDS"]

#: Where "Report an issue" opens a new issue, prefilled with the record's id and page.
DEFAULT_ISSUES_URL = "https://github.com/errdex/errdex/issues/new"
#: Largest request body ``POST /api/match`` (and the paste form) accepts; larger is 413.
MAX_MATCH_BYTES = 64 * 1024
#: How often a running server looks for new scans (one tiny query).
POLL_SECONDS = 2.0
