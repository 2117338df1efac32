"""A name bound to code whose text is not known shows as the name (``{resp}``), with the
code kept as what fills it; text only read at run time is irreducible, and says where."""

from __future__ import annotations

import ftplib
import io
import nntplib
import sysconfig
from pathlib import Path

import pytest

from errdex.extract.python import extract_python
from errdex.template import MessageTemplate

from ._fixture import raised, templates_at

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def _site(module: str, text_of_line: str, cls: str):
    text = (STDLIB / module).read_text()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if text_of_line in t)
    (site,) = [s for s in extract_python(text, module) if s.line == line and s.error_class == cls]
    return site


def test_ftplib_reply_is_a_named_hole_read_at_run_time() -> None:
    site = _site("ftplib.py", "raise error_perm(resp)", "error_perm")
    assert site.template.display == "{resp}"
    (hole,) = site.template.holes
    assert hole.filled == "self.getmultiline()"
    assert "`{resp}` is filled by `self.getmultiline()`" in site.notes
    (why,) = [n for n in site.notes if n.startswith("irreducible")]
    assert "`self.file.readline` in `FTP.getline`" in why
    # what the runtime prints: the server's reply line, and nothing else
    ftp = ftplib.FTP()
    ftp.file = io.StringIO("550 No such file\r\n")
    with pytest.raises(ftplib.error_perm) as caught:
        ftp.getresp()
    assert str(caught.value) == "550 No such file"
    assert site.template.match(str(caught.value)) == {"resp": "550 No such file"}


def test_nntplib_date_reply_shows_no_code() -> None:
    text = (STDLIB / "nntplib.py").read_text()
    sites = [s for s in extract_python(text, "nntplib.py") if s.qualname.endswith(".date")]
    assert sites and all("(" not in s.template.display for s in sites)
    assert any(h.filled == 'self._shortcmd("DATE")' for s in sites for h in s.template.holes)
    assert all(any("`NNTP._getline`" in n for n in s.notes) for s in sites)
    # NNTPReplyError prints the reply the server gave to DATE
    err = nntplib.NNTPReplyError("500 What?")
    assert str(err) == "500 What?"


def test_a_subclass_reads_through_its_base_in_the_module() -> None:
    text = (STDLIB / "ftplib.py").read_text()
    sites = [
        s
        for s in extract_python(text, "ftplib.py")
        if s.qualname.startswith("ftplib.FTP_TLS.") and s.template.display == "{resp}"
    ]
    assert sites and all(any("`FTP.getline`" in n for n in s.notes) for s in sites)


HELPER = """\
class Client:
    def _format(self, value):
        return compute(value)

    def fail(self, value):
        text = self._format(value)
        raise ValueError(text)
"""


def test_a_helper_not_read_is_named_but_not_called_irreducible() -> None:
    found = templates_at(HELPER, "raise ValueError(text)")
    assert list(found) == ["{text}"]
    (site,) = [s for s in extract_python(HELPER, "m.py", module="m") if s.line == 7]
    assert "`{text}` is filled by `self._format(value)`" in site.notes
    assert not any(n.startswith("irreducible") for n in site.notes)


REBOUND = """\
def check(url):
    if url.startswith("x"):
        url = url[2:]
    else:
        url = url.replace(":", "|")
    raise ValueError("Bad URL: " + url)
"""


def test_a_rebound_name_keeps_its_name_and_both_fillers() -> None:
    found = templates_at(REBOUND, "raise ValueError")
    assert list(found) == ["Bad URL: {url}"]
    (hole,) = found["Bad URL: {url}"].holes
    assert hole.filled == 'url[2:] or url.replace(":", "|")'
    exc = raised(REBOUND, "check('x:a')")
    assert found["Bad URL: {url}"].match(str(exc)) == {"url": "a"}


def test_filled_round_trips_and_does_not_split_equal_templates() -> None:
    one = MessageTemplate.from_json([{"hole": "{resp}", "name": "resp", "filled": "f()"}])
    assert one.to_json() == [{"hole": "{resp}", "name": "resp", "filled": "f()"}]
    assert one == MessageTemplate.hole("{resp}", "resp")


UNPACKED = """\
def load(table, key):
    (module_name, class_name) = table[key]
    try:
        module_name = "distutils." + module_name
        __import__(module_name)
    except ImportError:
        raise ValueError("unable to load module '%s'" % module_name)
"""


def test_a_rebinding_of_a_name_bound_by_a_tuple_target_is_not_unrolled() -> None:
    # distutils' ccompiler: the earlier ``module_name`` is not known, so it is a hole,
    # not the right side read again and again ('distutils.distutils.distutils…')
    found = templates_at(UNPACKED, "raise ValueError")
    assert list(found) == ["unable to load module 'distutils.{module_name}'"]
    exc = raised(UNPACKED, "load({'x': ('no_such_module_errdex', 'C')}, 'x')")
    assert str(exc) == "unable to load module 'distutils.no_such_module_errdex'"
    assert found["unable to load module 'distutils.{module_name}'"].match(str(exc)) is not None
