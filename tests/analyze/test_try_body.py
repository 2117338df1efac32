"""Which statement of a ``try`` raised what its handler caught (blind review 2026-12-06:
"Triggered after OSError was caught" was vague where the ``try`` holds one statement)."""

from __future__ import annotations

from errdex.analyze.guards import condition_phrase
from errdex.analyze.try_body import raising_statement, suppresses_context
from errdex.template import MessageTemplate

COPY = """\
        while True:
            try:
                fdst.write(buf)
            except OSError as e:
                raise DistutilsFileError("could not write")
"""

COMPILER = """\
    try:
        if compiler is None:
            compiler = get_default_compiler(plat)

        (module_name, class_name, long_description) = compiler_class[compiler]
    except KeyError:
        raise DistutilsPlatformError(msg)
"""

SEVERAL_HANDLERS = """\
    try:
        value = None
        return table[key]
    except TypeError:
        pass
    except KeyError:
        raise LookupError(key)
"""


def test_the_one_statement_that_can_raise_is_named() -> None:
    assert raising_statement(COPY.splitlines(), 50, 53) == "fdst.write(buf)"
    # ``value = None`` cannot raise; an earlier handler of the same try is passed over
    assert raising_statement(SEVERAL_HANDLERS.splitlines(), 1, 6) == "table[key]"


def test_a_try_of_several_statements_or_a_private_call_is_not_guessed() -> None:
    assert raising_statement(COMPILER.splitlines(), 1008, 1014) is None
    private = "try:\n    self._fill(n)\nexcept OSError:\n    raise E\n"
    assert raising_statement(private.splitlines(), 1, 3) is None
    # the try is outside the window
    assert raising_statement(COPY.splitlines()[2:], 52, 53) is None


def test_the_phrase_names_it() -> None:
    guards = [{"kind": "except", "text": "OSError was raised (as e)", "line": 53}]
    template = MessageTemplate.literal("could not write")
    phrase = condition_phrase(guards, template, raisers={53: "fdst.write(buf)"})  # type: ignore[arg-type]
    assert phrase == "after `fdst.write(buf)` raised `OSError`"
    assert condition_phrase(guards, template) == "after `OSError` was caught"  # type: ignore[arg-type]
    two = [{"kind": "except", "text": "(TypeError, ValueError) was raised", "line": 3}]
    assert condition_phrase(two, template, raisers={3: "int(s)"}) == (  # type: ignore[arg-type]
        "after `int(s)` raised one of `TypeError`, `ValueError`"
    )


FROM_NONE = """\
            try:
                ipv4_int = IPv4Address(parts.pop())._ip
            except AddressValueError as exc:
                raise AddressValueError(str(exc) +
                                        ' in %r' % address) from None
"""


def test_raise_from_none_names_no_handler_as_the_cause() -> None:
    """Blind review 2026-12-06 (``ipaddress._BaseV6._ip_int_from_string``): ``from None``
    hides what the handler caught; the statement that raised it is said instead."""
    lines = FROM_NONE.splitlines()
    assert suppresses_context(lines, 3)
    assert not suppresses_context(COPY.splitlines(), 4)
    guards = [{"kind": "except", "text": "AddressValueError was raised (as exc)", "line": 3}]
    template = MessageTemplate.literal("x")
    by = {3: "IPv4Address(parts.pop())._ip"}
    assert condition_phrase(guards, template, raisers=by, suppressed=True) == (  # type: ignore[arg-type]
        "when `IPv4Address(parts.pop())._ip` raises `AddressValueError`"
    )
    assert condition_phrase(guards, template, suppressed=True) == (  # type: ignore[arg-type]
        "when its `try` block raises `AddressValueError`"
    )


SPAWN = """\
        try:
            self.spawn(compiler_so + cc_args + [src, '-o', obj] +
                       extra_postargs)
        except DistutilsExecError as msg:
            raise CompileError(msg)
"""


def test_a_call_over_several_lines_is_named_by_what_it_calls() -> None:
    """distutils' ``UnixCCompiler._compile``: "after `DistutilsExecError` was caught" did
    not say what raised it (paired blind review, stop 35)."""
    assert raising_statement(SPAWN.splitlines(), 1, 4) == "self.spawn(...)"
    bound = "try:\n    out = check(\n        a,\n        b)\nexcept OSError:\n    raise E\n"
    assert raising_statement(bound.splitlines(), 1, 5) == "check(...)"
    listed = "try:\n    x = [\n        f(a),\n    ]\nexcept OSError:\n    raise E\n"
    assert raising_statement(listed.splitlines(), 1, 5) is None  # no call of its own


def test_a_long_call_whose_arguments_may_raise_is_not_named() -> None:
    """``unittest.loader``: the ``AttributeError`` comes from ``the_module.__file__``, not
    from ``os.path.abspath``; "`os.path.abspath(...)` raises it" would be false."""
    nested = (
        "try:\n    start_dir = \\\n        os.path.abspath(os.path.dirname((the_module.__file__)))\n"
        "except AttributeError:\n    raise TypeError('x')\n"
    )
    assert raising_statement(nested.splitlines(), 1, 4) is None
    own = (
        "try:\n    return open(string, self._mode, self._bufsize, self._encoding,\n"
        "                self._errors)\nexcept OSError as e:\n    raise E\n"
    )
    assert raising_statement(own.splitlines(), 1, 4) == "open(...)"


def test_a_call_whose_arguments_raise_the_caught_class_is_not_named() -> None:
    """Re-read of the merged change (session 37): under ``except ZeroDivisionError``,
    ``a / b`` raised, and ``convert`` never ran; "after `convert(...)` raised
    ZeroDivisionError" was false. Names and ``self``'s attributes stay plain only where
    the handler cannot catch what reading them raises."""
    divided = (
        "try:\n    value = convert(a / b,\n        mode)\nexcept ZeroDivisionError:\n"
        "    raise ValueError('x')\n"
    )
    assert raising_statement(divided.splitlines(), 1, 4) is None
    read = "try:\n    value = convert(self.a,\n        b)\nexcept AttributeError:\n    raise E\n"
    assert raising_statement(read.splitlines(), 1, 4) is None
    named = "try:\n    value = convert(a,\n        b)\nexcept NameError:\n    raise E\n"
    assert raising_statement(named.splitlines(), 1, 4) is None
    plain = (
        "try:\n    value = convert(a,\n        self.b, 3)\nexcept ZeroDivisionError:\n    raise E\n"
    )
    assert raising_statement(plain.splitlines(), 1, 4) == "convert(...)"
