"""What every route of one app shares: the catalogue, the templates and the settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from errdex.web.catalogue import Catalogue
from errdex.web.settings import DEFAULT_ISSUES_URL
from errdex.web.templating import Templates

__all__ = ["WebState"]


@dataclass
class WebState:
    db_path: str
    catalogue: Catalogue
    templates: Templates = field(default_factory=Templates)
    issues_url: str = DEFAULT_ISSUES_URL
    #: Why search is unavailable (the index could not be built), or None when it works.
    search_problem: str | None = None
