"""Exceptions raised through a name that is a class but does not look like one: re's
``error`` (star-imported from ``re._constants``) called directly or returned by
``Tokenizer.error``, an ``error = OSError`` alias. Read from the running standard library's
own source; each template must match ``str()`` of the error the real module raises."""

from __future__ import annotations

import re
import sysconfig
import textwrap
from pathlib import Path

import pytest

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository
from errdex.extract.site import ErrorSite

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def _sites_at(rel: str, source: str) -> list[ErrorSite]:
    """The sites of the first line of the stdlib module ``rel`` that holds ``source``."""
    text = (STDLIB / rel).read_text()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if source in t)
    with reading_repository(STDLIB):
        found = extract_python(text, rel)
    return [s for s in found if s.line == line]


def _re_error(pattern: str | bytes) -> str:
    with pytest.raises(re.error) as caught:
        re.compile(pattern)
    return str(caught.value)


def _matches(sites: list[ErrorSite], message: str) -> bool:
    return any(s.template.match(message) is not None for s in sites)


def test_re_error_called_directly_is_the_class() -> None:
    sites = _sites_at("re/_parser.py", 'raise error("too many groups")')
    assert [s.template.display for s in sites] == ["too many groups"]
    assert sites[0].qualified_class == "re._constants.error"


def test_tokenizer_error_prints_the_position_and_on_several_lines_the_line() -> None:
    sites = _sites_at("re/_parser.py", 'raise s.error("bad character in group name %r"')
    sites = sites or _sites_at("re/_parser.py", "bad character in group name %r' % name")
    assert {s.qualified_class for s in sites} == {"re._constants.error"}
    # ``error.__init__`` adds the line and column only when the pattern holds a newline:
    # one template, that part optional (``template.fold_optional``)
    assert {s.template.display for s in sites} == {
        "bad character in group name %r at position %d[ (line %d, column %d)]",
    }
    assert _matches(sites, _re_error("(?P<a!>x)"))
    assert _matches(sites, _re_error("x\n(?P<a!>x)"))
    assert any("`Tokenizer.error`, then `error.__init__`" in n for n in sites[0].notes)


def test_source_error_of_a_parameter_reaches_the_tokenizer() -> None:
    sites = _sites_at("re/_parser.py", '"missing ), unterminated subpattern"')
    sites = sites or _sites_at("re/_parser.py", "'missing ), unterminated subpattern'")
    assert _matches(sites, _re_error("(a"))
    assert all(not s.template.is_opaque for s in sites)


def test_error_given_pattern_and_position_builds_the_position_in() -> None:
    sites = _sites_at("re/_parser.py", 'raise error("bad escape (end of pattern)",')
    assert _matches(sites, _re_error("a\\"))
    assert not any(n.startswith("irreducible") for s in sites for n in s.notes)


ALIAS = """\
error = OSError


class Database:
    def close(self):
        raise error('DBM object has already been closed')
"""


def test_module_alias_of_a_builtin_prints_its_argument() -> None:
    found = extract_python(textwrap.dedent(ALIAS), "m.py", module="m")
    (site,) = found
    assert site.qualified_class == "builtins.OSError"
    assert site.template.display == "DBM object has already been closed"
    assert "message built by `error`, which is `OSError`" in site.notes
    scope: dict[str, object] = {}
    exec(ALIAS, scope)
    with pytest.raises(OSError) as caught:
        scope["Database"]().close()  # type: ignore[operator]
    assert site.template.match(str(caught.value)) is not None


def test_recoding_keeps_an_ascii_text() -> None:
    code = """\
    def fail(msg):
        raise ValueError(("bad " + msg).encode('ascii', 'backslashreplace').decode('ascii'))
    """
    (site,) = extract_python(textwrap.dedent(code), "m.py", module="m")
    assert site.template.display == "bad {msg}"


def test_class_nested_in_the_class_body_prints_its_argument() -> None:
    import imaplib

    sites = _sites_at("imaplib.py", "raise self.error('server not IMAP4 compliant')")
    (site,) = sites
    assert site.qualified_class == "imaplib.IMAP4.error"
    assert f"imaplib.{imaplib.IMAP4.error.__qualname__}" == site.qualified_class
    assert site.template.display == "server not IMAP4 compliant"
    assert site.template.match(str(imaplib.IMAP4.error("server not IMAP4 compliant"))) is not None
    (named,) = _sites_at("imaplib.py", 'raise IMAP4.error("Server does not support ENABLE")')
    assert named.template.display == "Server does not support ENABLE"
    # ``readonly(abort)``, ``abort(error)``: nested bases, none with its own ``__init__``
    readonly = _sites_at("imaplib.py", "raise self.readonly('%s is not writable' % mailbox)")
    assert [s.qualified_class for s in readonly] == ["imaplib.IMAP4.readonly"]
    assert (
        readonly[0].template.match(str(imaplib.IMAP4.readonly("INBOX is not writable"))) is not None
    )


def test_class_attribute_naming_a_builtin_is_that_class() -> None:
    import unittest

    sites = _sites_at("unittest/case.py", "raise self.failureException('First sequence is not")
    (site,) = sites
    assert site.qualified_class == "builtins.AssertionError"
    assert site.template.display == "First sequence is not a %s: %s"
    with pytest.raises(AssertionError) as caught:
        unittest.TestCase().assertSequenceEqual(1, [1], seq_type=list)  # type: ignore[arg-type]
    assert site.template.match(str(caught.value)) is not None


def test_init_assigning_self_args_prints_them_as_base_exception_does() -> None:
    import smtplib

    (literal,) = _sites_at("smtplib.py", 'raise SMTPResponseException(500, "Line too long.")')
    assert literal.template.display == "({code}, 'Line too long.')"
    real = str(smtplib.SMTPResponseException(500, "Line too long."))
    assert real == "(500, 'Line too long.')"  # an OSError subclass, yet no "[Errno 500]"
    assert literal.template.match(real) is not None
    (sender,) = _sites_at("smtplib.py", "raise SMTPSenderRefused(code, resp, from_addr)")
    assert sender.template.display == "({code}, {resp}, {from_addr})"
    assert sender.template.match(str(smtplib.SMTPSenderRefused(550, b"no", "a@b"))) is not None


def test_str_aliased_to_object_str_prints_the_classes_repr() -> None:
    import http.client

    (empty,) = _sites_at("http/client.py", 'raise IncompleteRead(b"")')
    assert empty.template.display == "IncompleteRead(%i bytes read)"
    assert empty.template.match(str(http.client.IncompleteRead(b""))) is not None
    partial = _sites_at("http/client.py", "raise IncompleteRead(data, amt-len(data))")
    # ``expected`` is ``amt-len(data)``, never None: ``__repr__`` always adds it
    assert {s.template.display for s in partial} == {
        "IncompleteRead(%i bytes read, %i more expected)",
    }
    real = str(http.client.IncompleteRead(b"abc", 5))
    assert real == "IncompleteRead(3 bytes read, 5 more expected)"
    assert _matches(partial, real)


def test_percent_value_known_to_be_one_of_two_texts_gives_both() -> None:
    code = """\
    def f(flag):
        if flag:
            e = ', and more'
        else:
            e = ''
        raise ValueError('bad%s' % e)
    """
    found = [s.template for s in extract_python(textwrap.dedent(code), "m.py")]
    assert [t.display for t in found] == ["bad[, and more]"]  # one, its end optional
    assert found[0].match("bad, and more") == {} and found[0].match("bad") == {}


def test_object_str_in_a_base_prints_the_subclass_repr_or_base_exceptions() -> None:
    import xmlrpc.client

    (protocol,) = _sites_at("xmlrpc/client.py", "raise ProtocolError(")
    assert protocol.template.display == "<ProtocolError for %s: %s %s>"
    real = str(xmlrpc.client.ProtocolError("host/RPC2", 404, "Not Found", {}))
    assert protocol.template.match(real) is not None
    (bare,) = _sites_at("xmlrpc/client.py", "raise ResponseError()")
    assert bare.template.display == "ResponseError()"
    assert str(xmlrpc.client.ResponseError()) == "ResponseError()"
    (tag,) = _sites_at("xmlrpc/client.py", 'raise ResponseError("unknown tag %r" % tag)')
    real = str(xmlrpc.client.ResponseError("unknown tag 'x'"))
    assert real == "ResponseError(\"unknown tag 'x'\")"
    assert tag.template.match(real) is not None


def test_key_error_subclass_quotes_its_message() -> None:
    import zoneinfo

    (site,) = _sites_at("zoneinfo/_common.py", "raise ZoneInfoNotFoundError(")
    assert site.template.display == "'No time zone found with key {key}'"
    with pytest.raises(zoneinfo.ZoneInfoNotFoundError) as caught:
        zoneinfo.ZoneInfo("No/Such_Zone")
    assert str(caught.value) == "'No time zone found with key No/Such_Zone'"
    assert site.template.match(str(caught.value)) is not None
    assert site.template.match("No time zone found with key No/Such_Zone") is None


OSERRORS = """\
class StoreError(OSError):
    pass


def missing(path):
    raise StoreError(2, "No such store", path)


def refused(code):
    raise StoreError(code, "refused")
"""


def test_oserror_subclass_prints_errno_and_filename() -> None:
    sites = {s.line: s for s in extract_python(textwrap.dedent(OSERRORS), "m.py", module="m")}
    assert sites[6].template.display == "[Errno 2] No such store: {path}"
    assert sites[10].template.display == "[Errno {code}] refused"
    scope: dict[str, object] = {}
    exec(OSERRORS, scope)
    for line, call in ((6, "missing('/tmp/s')"), (10, "refused(13)")):
        with pytest.raises(OSError) as caught:
            eval(call, scope)
        assert sites[line].template.match(str(caught.value)) is not None, str(caught.value)
    assert str(OSError(2, "x")) == "[Errno 2] x"


KEYS = """\
class Missing(KeyError):
    pass


def check(msg=None):
    raise Missing("no such key" if msg is None else msg)
"""


def test_key_error_subclass_keeps_each_text_its_argument_may_hold() -> None:
    found = {s.template.display for s in extract_python(textwrap.dedent(KEYS), "m.py", module="m")}
    assert found == {"'no such key'", "{msg}"}
    scope: dict[str, object] = {}
    exec(KEYS, scope)
    with pytest.raises(KeyError) as caught:
        scope["check"]()  # type: ignore[operator]
    assert str(caught.value) == "'no such key'"
