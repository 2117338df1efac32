"""werkzeug's ``abort(404)`` (``raise self.mapping[code](*args)``) prints what ``raise
NotFound()`` prints: it joins the class's own sites' group (match/rank_run_time.py)."""

from __future__ import annotations

from pathlib import Path

from errdex.match import match
from errdex.match.rank_passed import MAX_PASSED

from .conftest import build_package

HTTP = """\
class HTTPException(Exception):
    code = None
    description = None

    def __init__(self, description=None):
        super().__init__()
        if description is not None:
            self.description = description

    def __str__(self):
        return f"{self.code} {type(self).__name__}: {self.description}"


class NotFound(HTTPException):
    code = 404
    description = "The requested URL was not found on the server."


class Aborter:
    def __init__(self, mapping):
        self.mapping = mapping

    def __call__(self, code, *args):
        if code not in self.mapping:
            raise LookupError(f"no exception for {code!r}")
        raise self.mapping[code](*args)


def send(path):
    if path is None:
        raise NotFound()
    return path


class ParseError(HTTPException):
    def __str__(self):
        return self.description


def parse(text):
    if not text:
        raise ParseError(f"cannot parse an empty document at {text!r}")
    return text
"""

PASTE = "web.exceptions.NotFound: 404 NotFound: The requested URL was not found on the server."


def test_the_site_choosing_the_class_at_run_time_joins_the_class_s_own_site(
    tmp_path: Path,
) -> None:
    db = build_package(tmp_path, "web", {"exceptions.py": HTTP})
    found = match(PASTE, db=db)
    sites = [(c.filePath, c.lineNumber) for c in found]
    # the class's own site first (its template fixes characters), the abort site beside it
    assert sites == [("src/web/exceptions.py", 31), ("src/web/exceptions.py", 26)]
    assert all(c.group == 0 and c.groupSize == 2 for c in found)
    assert abs(found[0].confidence - found[1].confidence) < 1e-9


def test_a_message_of_words_is_still_decided_by_its_own_text(tmp_path: Path) -> None:
    """Only a template fitting through its values ties with the run-time site."""
    db = build_package(tmp_path, "web", {"exceptions.py": HTTP})
    found = match("web.exceptions.ParseError: cannot parse an empty document at ''", db=db)
    assert [(c.filePath, c.lineNumber) for c in found] == [("src/web/exceptions.py", 42)]


WRAPPED = (
    HTTP
    + """

class TemplateError(Exception):
    pass


def render(source):
    try:
        return compile(source, "<template>", "eval")
    except SyntaxError as error:
        raise TemplateError(str(error)) from error
"""
)


def test_beside_a_one_value_site_of_the_class_no_run_time_site_joins(tmp_path: Path) -> None:
    """A one-value site fits any message of its class: a run-time site beside it was put
    first in the group (jinja2's and packaging's messages), so none joins it."""
    db = build_package(tmp_path, "web", {"exceptions.py": WRAPPED})
    found = match("web.exceptions.TemplateError: invalid syntax (<template>, line 1)", db=db)
    assert [(c.filePath, c.lineNumber) for c in found][:1] == [("src/web/exceptions.py", 54)]
    assert ("src/web/exceptions.py", 26) not in {(c.filePath, c.lineNumber) for c in found}


WORDED = (
    HTTP
    + """

class BadRequest(HTTPException):
    code = 400
    description = "The browser (or proxy) sent a request that this server could not understand."


def load(text):
    try:
        return int(text)
    except ValueError as e:
        raise BadRequest(f"Failed to decode JSON object: {e}") from None
"""
)


def test_where_the_class_s_own_sites_only_answer_as_overrides_the_run_time_site_leads(
    tmp_path: Path,
) -> None:
    """werkzeug's ``abort(400)``: ``BadRequest()`` prints the class's default text, which
    no template of its one site (a message of words) fits; the abort site fits it through
    its values and comes first, the override beside it."""
    db = build_package(tmp_path, "web", {"exceptions.py": WORDED})
    paste = (
        "web.exceptions.BadRequest: 400 BadRequest: The browser (or proxy) sent a request "
        "that this server could not understand."
    )
    found = match(paste, db=db)
    sites = [(c.filePath, c.lineNumber) for c in found]
    assert sites[:2] == [("src/web/exceptions.py", 26), ("src/web/exceptions.py", 55)]
    assert found[0].group == found[1].group == 0


def test_more_run_time_sites_than_a_group_can_hold_join_none(tmp_path: Path) -> None:
    """Past :data:`.rank_passed.MAX_PASSED` run-time sites fitting, none joins the
    override's group (as for passed-in sites): a group that large says nothing."""
    many = "".join(
        f"\n\ndef abort_{k}(mapping, code, *args):\n    raise mapping[code](*args)\n"
        for k in range(MAX_PASSED + 1)
    )
    db = build_package(tmp_path, "web", {"exceptions.py": WORDED + many})
    paste = (
        "web.exceptions.BadRequest: 400 BadRequest: The browser (or proxy) sent a request "
        "that this server could not understand."
    )
    found = match(paste, db=db)
    assert found and found[0].lineNumber == 55
    assert all(c.lineNumber in (55, 26) or c.group != 0 for c in found)
    assert all(c.lineNumber <= 55 for c in found if c.group == 0)
