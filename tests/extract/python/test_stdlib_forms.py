"""Stdlib messages built away from the raise, compared with ``str()`` of the error the
runtime really raises (issue 10, item 6)."""

from __future__ import annotations

import importlib.util
import sys
import sysconfig
import unittest
import urllib.error
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository
from errdex.extract.site import ErrorSite

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def sites_at(module: str, text_of_line: str, below: int = 0) -> list[ErrorSite]:
    """The sites ``below`` lines under the first line of ``module`` holding the text."""
    text = (STDLIB / module).read_text()
    line = below + next(i for i, t in enumerate(text.splitlines(), 1) if text_of_line in t)
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


def _failure(call: Callable[[unittest.TestCase], None], long_message: bool = True) -> str:
    case = unittest.TestCase()
    case.longMessage = long_message
    with pytest.raises(AssertionError) as caught:
        call(case)
    return str(caught.value)


def test_format_message_gives_each_text_it_can_return() -> None:
    # ``_formatMessage`` returns ``msg or standardMsg`` (longMessage off), ``standardMsg``
    # or ``'%s : %s' % (standardMsg, msg)``: an ``if`` not decided, each way an alternative
    sites = sites_at("unittest/case.py", '"%s is not false" % safe_repr(expr)', below=1)
    shown = {s.template.display for s in sites}
    assert shown == {"{msg}", "%s is not false[ : %s]"}  # `` : msg`` printed on one way
    assert all("(" not in text for text in shown)
    printed = [
        _failure(lambda t: t.assertFalse(True)),
        _failure(lambda t: t.assertFalse(True, "why")),
        _failure(lambda t: t.assertFalse(True, "why"), long_message=False),
    ]
    assert printed == ["True is not false", "True is not false : why", "why"]
    for text in printed:
        assert any(s.template.match(text) is not None for s in sites)


def test_a_str_printing_the_callers_value_alone_is_that_value() -> None:
    # doctest's ``UnexpectedException.__str__`` is ``return str(self.test)``: it prints
    # the ``test`` the raise passes, and nothing else
    (site,) = sites_at("doctest.py", "raise UnexpectedException(test, example, exc_info)")
    assert site.template.display == "{test}"
    assert any(n.startswith("irreducible") for n in site.notes)
    import doctest

    test = doctest.DocTest([], {}, "t", "f.py", 1, None)
    err = doctest.UnexpectedException(test, None, None)
    assert str(err) == str(test)
    assert site.template.match(str(err)) == {"test": str(test)}


def test_percent_d_of_module_constants_in_a_tuple_repr() -> None:
    # ``ValueError('year must be in %d..%d' % (MINYEAR, MAXYEAR), year)``
    (site,) = sites_at(
        "datetime.py", "raise ValueError('year must be in %d..%d' % (MINYEAR, MAXYEAR), year)"
    )
    assert site.template.display == "('year must be in 1..9999', {year})"
    # the pure-Python module, with the C ``_datetime`` kept out, raises it for real
    spec = importlib.util.spec_from_file_location("_errdex_pydatetime", STDLIB / "datetime.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("_datetime")
    sys.modules["_datetime"] = None  # type: ignore[assignment]
    try:
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del sys.modules["_datetime"]
        else:
            sys.modules["_datetime"] = saved
    with pytest.raises(ValueError) as caught:
        module.date(10000, 1, 1)
    assert str(caught.value) == "('year must be in 1..9999', 10000)"
    assert site.template.match(str(caught.value)) == {"year": "10000"}


def test_a_group_count_is_a_number_hole_not_code() -> None:
    (site,) = sites_at("asyncio/taskgroups.py", "raise me from None", below=0)
    assert site.template.display == "unhandled errors in a TaskGroup ({count} sub-exception{s})"
    assert site.template.holes[0].filled == "len(self._errors)"
    for errors in ([ValueError()], [ValueError(), KeyError()]):
        group = BaseExceptionGroup("unhandled errors in a TaskGroup", errors)
        assert site.template.match(str(group)) is not None
