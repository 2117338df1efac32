"""Stdlib messages built away from the raise, compared with ``str()`` of the error the
runtime really raises (issue 10, item 6)."""

from __future__ import annotations

import sysconfig
import urllib.error
from pathlib import Path

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository
from errdex.extract.site import ErrorSite

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def sites_at(module: str, text_of_line: str) -> list[ErrorSite]:
    text = (STDLIB / module).read_text()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if text_of_line in t)
    with reading_repository(STDLIB):
        found = extract_python(text, module)
    return [s for s in found if s.line == line]


def test_http_error_prints_code_and_message_through_an_aliased_base_init() -> None:
    # ``self.__super_init(fp, hdrs, url, code)``, ``__super_init = addinfourl.__init__``
    (site,) = sites_at(
        "urllib/request.py", 'raise HTTPError(req.full_url, 401, "digest auth failed"'
    )
    assert site.template.display == "HTTP Error 401: digest auth failed"
    err = urllib.error.HTTPError("http://x/", 401, "digest auth failed", {}, None)  # type: ignore[arg-type]
    assert str(err) == site.template.display
    (general,) = sites_at("urllib/request.py", "raise HTTPError(req.full_url, code, msg, hdrs, fp)")
    assert general.template.display == "HTTP Error %s: %s"
    other = urllib.error.HTTPError("http://x/", 404, "Not Found", {}, None)  # type: ignore[arg-type]
    assert general.template.match(str(other)) == {"0": "404", "1": "Not Found"}
