"""parse_paste on real output: CPython, pytest, IPython, JAX, warnings and logging.

Every fixture under tests/fixtures/pastes/ was printed by a real run; the scripts in
tests/fixtures/pastes/_make/ regenerate them (paths under /tmp/errdex-pastes/ are fixed so
the expectations below survive a regeneration on the same kind of machine).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.match.paste import Frame, PastedError, parse_paste

PASTES = Path(__file__).resolve().parent.parent / "fixtures" / "pastes"
T = "/tmp/errdex-pastes"
STDLIB = "/root/.pyenv/versions/3.11.7/lib/python3.11"

Summary = tuple[str | None, str, str | None, str]


def parse(name: str) -> list[PastedError]:
    return parse_paste((PASTES / f"{name}.txt").read_bytes())


def summary(errors: list[PastedError]) -> list[Summary]:
    """(class, message, relation, source_format) of each error, in order."""
    return [(e.error_class, e.message, e.relation, e.source_format) for e in errors]


def frames(error: PastedError) -> list[tuple[str, int | None, str | None, str | None]]:
    return [(f.path, f.line, f.function, f.source) for f in error.frames]


# -- bare lines -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "cls", "message"),
    [
        ("bare_value", "ValueError", "invalid literal for int() with base 10: 'x'"),
        (
            "bare_module",
            "json.decoder.JSONDecodeError",
            "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        ("bare_class_only", "mylib.errors.Empty", ""),
        (
            "bare_multiline",
            "mylib.errors.ConfigError",
            "bad config:\n  key 'port': expected int, got 'http'\n  key 'host': missing",
        ),
        ("ipython_minimal", "ValueError", "too big: 5"),
    ],
)
def test_bare_lines(name: str, cls: str, message: str) -> None:
    assert summary(parse(name)) == [(cls, message, None, "bare")]
    assert parse(name)[0].frames == []


def test_prose_with_colons_is_not_an_error() -> None:
    assert parse_paste("Note: this is fine\nHello\nvalue: 3\nI ran it: it failed") == []


# -- CPython tracebacks ---------------------------------------------------------------------


def test_simple_traceback_frames_outermost_first() -> None:
    [error] = parse("py_traceback_simple")
    root = f"{T}/py_traceback_simple"
    assert summary([error]) == [
        ("ValueError", "value must be non-negative, got -2", None, "traceback")
    ]
    assert frames(error) == [
        (f"{root}/main.py", 8, "<module>", "main()"),
        (f"{root}/main.py", 5, "main", "run([1, -2])"),
        (f"{root}/mylib/core.py", 13, "run", "return [check(v) for v in values]"),
        (f"{root}/mylib/core.py", 13, "<listcomp>", "return [check(v) for v in values]"),
        (
            f"{root}/mylib/core.py",
            8,
            "check",
            'raise ValueError(f"value must be non-negative, got {value}")',
        ),
    ]
    assert all(isinstance(f, Frame) for f in error.frames)


def test_caret_and_tilde_markers_are_not_source() -> None:
    [error] = parse("py_traceback_markers")
    assert error.message == "unsupported operand type(s) for +: 'int' and 'str'"
    assert frames(error)[-1] == (f"{T}/py_traceback_markers/main.py", 6, "add", "return 1 + x")


def test_chain_during_handling_is_context() -> None:
    first, last = parse("py_chain_context")
    assert summary([first, last]) == [
        ("KeyError", "'name'", "context", "traceback"),
        ("RuntimeError", "missing key: name", None, "traceback"),
    ]
    assert frames(first) == [(f"{T}/py_chain_context/main.py", 3, "get", "return d[key]")]
    assert [f.line for f in last.frames] == [8, 5]


def test_chain_mixing_cause_and_context() -> None:
    errors = parse("py_chain_mixed")
    missing = "[Errno 2] No such file or directory: '/nonexistent/app.toml'"
    assert summary(errors) == [
        ("FileNotFoundError", missing, "cause", "traceback"),
        (
            "mylib.errors.ConfigError",
            f"cannot read config '/nonexistent/app.toml': {missing}",
            "context",
            "traceback",
        ),
        ("RuntimeError", "startup failed", None, "traceback"),
    ]
    assert frames(errors[0]) == [
        (f"{T}/py_chain_mixed/mylib/core.py", 18, "load", "with open(path) as fh:")
    ]


def test_message_with_colons_frame_lines_and_blank_lines_is_kept_whole() -> None:
    [error] = parse("py_multiline_message")
    assert error.message == (
        "shapes do not match: (3,) vs (4,)\n"
        '  File "fake.py", line 3, in nowhere\n'
        "\n"
        "hint: reshape with x.reshape(4): or pad\n"
        "TypeError: this line is part of the message"
    )
    assert [f.path for f in error.frames] == [f"{T}/py_multiline_message/main.py"] * 2


def test_module_qualified_class_with_stdlib_frames() -> None:
    [error] = parse("py_module_class")
    assert error.error_class == "json.decoder.JSONDecodeError"
    assert error.message == "Expecting value: line 1 column 1 (char 0)"
    assert frames(error)[1:] == [
        (f"{STDLIB}/json/__init__.py", 346, "loads", "return _default_decoder.decode(s)"),
        (
            f"{STDLIB}/json/decoder.py",
            337,
            "decode",
            "obj, end = self.raw_decode(s, idx=_w(s, 0).end())",
        ),
        (
            f"{STDLIB}/json/decoder.py",
            355,
            "raw_decode",
            'raise JSONDecodeError("Expecting value", s, err.value) from None',
        ),
    ]


def test_bare_class_after_a_traceback() -> None:
    [error] = parse("py_bare_class")
    assert (error.error_class, error.message) == ("mylib.errors.Empty", "")
    assert frames(error)[-1] == (f"{T}/py_bare_class/main.py", 5, "pop", "raise Empty")


def test_previous_line_repeated() -> None:
    [error] = parse("py_recursion")
    assert (error.error_class, error.message) == (
        "RecursionError",
        "maximum recursion depth exceeded",
    )
    assert [(f.line, f.function) for f in error.frames] == [(5, "<module>")] + [(2, "down")] * 3


def test_stdin_frames_have_no_source() -> None:
    [error] = parse("py_stdin")
    assert error.message == "'int' object has no attribute 'upper'"
    assert frames(error) == [("<stdin>", 3, "<module>", None), ("<stdin>", 2, "f", None)]


def test_notes_added_with_add_note_stay_in_the_message() -> None:
    # CPython prints notes as plain lines after the message: nothing marks where they start.
    [error] = parse("py_notes")
    assert error.message == (
        "invalid literal for int() with base 10: '1,000'\n"
        "while parsing row 3 of data.csv\n"
        "hint: strip the thousands separator"
    )
    assert error.notes == []


def test_frames_only_paste() -> None:
    [error] = parse("py_frames_only")
    assert (error.error_class, error.message, error.source_format) == (None, "", "traceback")
    assert [(f.line, f.function) for f in error.frames] == [
        (8, "<module>"),
        (5, "main"),
        (13, "run"),
        (13, "<listcomp>"),
        (8, "check"),
    ]


def test_windows_line_endings() -> None:
    crlf = parse("py_crlf")
    assert summary(crlf) == [
        ("KeyError", "'name'", "context", "traceback"),
        ("RuntimeError", "missing key: name", None, "traceback"),
    ]
    assert frames(crlf[1])[-1] == (
        f"{T}/py_crlf/main.py",
        5,
        "get",
        'raise RuntimeError(f"missing key: {key}")',
    )


def test_indented_paste_of_a_traceback() -> None:
    text = (PASTES / "py_chain_context.txt").read_text()
    indented = "".join("    " + line for line in text.splitlines(keepends=True))
    assert summary(parse_paste(indented)) == summary(parse("py_chain_context"))


def test_remote_traceback_quoted_in_a_message() -> None:
    text = (
        "multiprocessing.pool.RemoteTraceback: \n"
        '"""\n'
        "Traceback (most recent call last):\n"
        '  File "/w/job.py", line 3, in work\n'
        "ValueError: bad row\n"
        '"""\n'
        "\n"
        "The above exception was the direct cause of the following exception:\n"
        "\n"
        "Traceback (most recent call last):\n"
        '  File "/w/main.py", line 9, in <module>\n'
        "ValueError: bad row\n"
    )
    remote, final = parse_paste(text)
    assert remote.error_class == "multiprocessing.pool.RemoteTraceback"
    assert remote.message.startswith('\n"""\nTraceback (most recent call last):\n')
    assert remote.message.endswith('ValueError: bad row\n"""')
    assert (remote.relation, final.error_class, final.message) == ("cause", "ValueError", "bad row")


def test_windows_paths_and_a_class_without_message() -> None:
    text = (
        "Traceback (most recent call last):\r\n"
        '  File "C:\\Users\\me\\proj\\a.py", line 3, in <module>\r\n'
        "    f()\r\n"
        "KeyboardInterrupt\r\n"
    )
    [error] = parse_paste(text)
    assert (error.error_class, error.message) == ("KeyboardInterrupt", "")
    assert frames(error) == [("C:\\Users\\me\\proj\\a.py", 3, "<module>", "f()")]


def test_markdown_fence_and_prompt_end_a_message() -> None:
    text = "```\nTraceback (most recent call last):\nValueError: x\n```\n$ echo done\n"
    assert summary(parse_paste(text)) == [("ValueError", "x", None, "traceback")]


# -- syntax errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "cls", "message", "frame"),
    [
        ("py_syntax_error", "SyntaxError", "invalid syntax", (2, "def f(:")),
        (
            "py_syntax_error_perhaps",
            "SyntaxError",
            "invalid syntax. Perhaps you forgot a comma?",
            (1, "values = [1, 2"),
        ),
        (
            "py_indentation_error",
            "IndentationError",
            "expected an indented block after function definition on line 1",
            (2, "return 1"),
        ),
    ],
)
def test_syntax_error_layout(name: str, cls: str, message: str, frame: tuple[int, str]) -> None:
    [error] = parse(name)
    assert summary([error]) == [(cls, message, None, "syntax-error")]
    assert frames(error) == [(f"{T}/{name}/main.py", frame[0], None, frame[1])]


def test_syntax_error_in_an_imported_module() -> None:
    [error] = parse("py_syntax_error_import")
    assert error.message == "Missing parentheses in call to 'print'. Did you mean print(...)?"
    assert frames(error) == [
        (f"{T}/py_syntax_error_import/main.py", 1, "<module>", "import broken"),
        (f"{T}/py_syntax_error_import/broken.py", 4, None, "print 'hello'"),
    ]


def test_syntax_error_from_compile_has_no_caret() -> None:
    [error] = parse("py_syntax_error_compile")
    assert (error.error_class, error.message) == ("SyntaxError", "invalid syntax")
    assert frames(error)[-1] == ("<expr>", 1, None, "1 +")


# -- exception groups -----------------------------------------------------------------------


def test_nested_exception_group_lists_members_before_the_group() -> None:
    errors = parse("py_exception_group")
    group = "exception-group"
    assert summary(errors) == [
        ("ValueError", "bad value", None, group),
        ("TypeError", "bad type", None, group),
        ("KeyError", "'k'", None, group),
        ("OSError", "disk gone", "cause", group),
        ("RuntimeError", "save failed", None, group),
        ("ExceptionGroup", "inner problems (2 sub-exceptions)", None, group),
        ("ExceptionGroup", "many problems (3 sub-exceptions)", None, group),
    ]
    main = f"{T}/py_exception_group/main.py"
    assert frames(errors[2]) == [
        (main, 14, "collect", 'fail(KeyError("k"))'),
        (main, 2, "fail", "raise exc"),
    ]
    assert errors[5].frames == []
    assert frames(errors[6]) == [
        (main, 28, "<module>", "collect()"),
        (main, 25, "collect", 'raise ExceptionGroup("many problems", errors)'),
    ]


def test_group_caused_by_an_ordinary_exception() -> None:
    errors = parse("py_exception_group_cause")
    assert summary(errors) == [
        ("TypeError", "t1", None, "exception-group"),
        ("ValueError", "root cause", "cause", "traceback"),
        ("ExceptionGroup", "wrapped (1 sub-exception)", None, "exception-group"),
    ]


def test_taskgroup() -> None:
    errors = parse("py_taskgroup")
    assert [(e.error_class, e.message) for e in errors] == [
        ("ValueError", "worker 1 failed"),
        ("ValueError", "worker 2 failed"),
        ("ExceptionGroup", "unhandled errors in a TaskGroup (2 sub-exceptions)"),
    ]
    assert frames(errors[0]) == [
        (f"{T}/py_taskgroup/main.py", 6, "worker", 'raise ValueError(f"worker {n} failed")')
    ]
    assert frames(errors[2])[-1] == (
        f"{STDLIB}/asyncio/taskgroups.py",
        145,
        "__aexit__",
        "raise me from None",
    )


# -- JAX --------------------------------------------------------------------------------------

JAX_MESSAGE = (
    "Attempted boolean conversion of traced array with shape bool[].\n"
    "The error occurred while tracing the function relu_sum at {model}:5 for jit. This "
    "concrete value was not available in Python because it depends on the value of the "
    "argument x.\n"
    "See https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError"
)
JAX_NOTE = (
    "--------------------\n"
    "For simplicity, JAX has removed its internal frames from the traceback of the following "
    "exception. Set JAX_TRACEBACK_FILTERING=off to include these."
)


def test_jax_filtered_traceback_note_is_split_from_the_message() -> None:
    [error] = parse("jax_script")
    assert error.error_class == "jax.errors.TracerBoolConversionError"
    assert error.message == JAX_MESSAGE.format(model=f"{T}/jax/model.py")
    assert error.notes == [JAX_NOTE]
    assert frames(error)[-1] == (f"{T}/jax/model.py", 7, "relu_sum", "if x.sum() > 0:")


def test_jax_note_after_an_ordinary_exception() -> None:
    [error] = parse("jax_shapes")
    assert (error.error_class, error.notes) == ("TypeError", [JAX_NOTE])
    assert error.message == (
        "dot_general requires contracting dimensions to have the same shape, got (3,) and (4,)."
    )


def test_jax_unfiltered_stack_trace_layout() -> None:
    unfiltered, error = parse("jax_remove_frames")
    assert unfiltered.error_class == "jax._src.traceback_util.UnfilteredStackTrace"
    assert unfiltered.relation == "cause"
    assert unfiltered.message == "jax.errors.TracerBoolConversionError: " + JAX_MESSAGE.format(
        model=f"{T}/jax/model.py"
    )
    assert unfiltered.notes == [
        "The stack trace below excludes JAX-internal frames.\n"
        "The preceding is the original exception that occurred, unmodified.\n"
        "\n"
        "--------------------"
    ]
    assert len(unfiltered.frames) == 10
    assert error.message == JAX_MESSAGE.format(model=f"{T}/jax/model.py")
    assert [f.function for f in error.frames] == ["<module>", "main", "relu_sum"]


def test_jax_under_pytest_and_ipython() -> None:
    [error] = parse("jax_pytest")
    assert (error.error_class, error.source_format) == (
        "jax.errors.TracerBoolConversionError",
        "pytest",
    )
    assert error.message == JAX_MESSAGE.format(model=f"{T}/jax/model.py")
    assert error.notes == [JAX_NOTE]
    assert frames(error) == [
        ("test_model.py", 7, "test_relu", "assert relu_sum(jnp.ones(3)) == 3"),
        ("model.py", 7, "relu_sum", "if x.sum() > 0:"),
    ]
    [error] = parse("jax_ipython")
    assert (error.error_class, error.source_format) == ("TracerBoolConversionError", "ipython")
    assert error.message == JAX_MESSAGE.format(model=f"{T}/jax_ipython/model.py")
    assert [(f.path, f.line, f.function) for f in error.frames] == [
        ("Cell In[2]", 1, None),
        ("~/model.py", 7, "relu_sum"),
        (
            "/tmp/jaxenv/lib/python3.11/site-packages/jax/_src/core.py",
            1961,
            "concretization_function_error.<locals>.error",
        ),
    ]


# -- pytest -----------------------------------------------------------------------------------

MISSING_CSV = "[Errno 2] No such file or directory: '/nonexistent/data.csv'"
SHAPE = "expected a 2-d shape, got (1, 2, 3)\n  hint: pass (rows, cols): both required"
PYTEST_ERRORS: list[Summary] = [
    ("KeyError", "'db'", None, "pytest"),
    ("ValueError", "value must be non-negative, got -1", None, "pytest"),
    ("mylib.core.ShapeError", SHAPE, None, "pytest"),
    ("FileNotFoundError", MISSING_CSV, "cause", "pytest"),
    ("RuntimeError", "cannot load /nonexistent/data.csv", None, "pytest"),
    ("AssertionError", "assert 2 == 3\n +  where 2 = check(2)", None, "pytest"),
    # test_not_raised (DID NOT RAISE) is pytest's complaint, not the library's error.
    ("ValueError", "value must be non-negative, got -3", None, "exception-group"),
    ("TypeError", "bad type", None, "exception-group"),
    ("ExceptionGroup", "batch failed (2 sub-exceptions)", None, "exception-group"),
    ("UserWarning", "careful: slow path", None, "warning"),
]


@pytest.mark.parametrize("name", ["pytest_tb_long", "pytest_tb_short", "pytest_color"])
def test_pytest_long_and_short(name: str) -> None:
    errors = parse(name)
    assert summary(errors) == PYTEST_ERRORS
    assert frames(errors[1]) == [
        ("tests/test_lib.py", 18, "test_value", "helper(-1)"),
        ("tests/test_lib.py", 14, "helper", "return check(v)"),
        (
            "mylib/core.py",
            7,
            "check",
            'raise ValueError(f"value must be non-negative, got {value}")',
        ),
    ]
    assert frames(errors[0]) == [("tests/test_lib.py", 10, "broken", 'raise KeyError("db")')]
    assert frames(errors[3]) == [("mylib/core.py", 22, "load", "with open(path) as fh:")]
    assert frames(errors[5]) == [("tests/test_lib.py", 30, "test_assert", "assert check(2) == 3")]
    assert frames(errors[9]) == [
        (
            f"{T}/pytest/tests/test_lib.py",
            55,
            None,
            'warnings.warn("careful: slow path", UserWarning)',
        )
    ]


def test_pytest_tb_line() -> None:
    errors = parse("pytest_tb_line")
    assert summary(errors) == PYTEST_ERRORS
    assert frames(errors[1]) == [(f"{T}/pytest/mylib/core.py", 7, None, None)]
    assert frames(errors[2]) == [(f"{T}/pytest/mylib/core.py", 13, None, None)]
    assert errors[3].frames == []  # the cause gets an E line but no location of its own
    assert frames(errors[5]) == [(f"{T}/pytest/tests/test_lib.py", 30, None, None)]


def test_pytest_tb_native() -> None:
    errors = parse("pytest_tb_native")
    assert summary(errors) == PYTEST_ERRORS
    assert [(f.path, f.line, f.function) for f in errors[1].frames[-3:]] == [
        (f"{T}/pytest/tests/test_lib.py", 18, "test_value"),
        (f"{T}/pytest/tests/test_lib.py", 14, "helper"),
        (f"{T}/pytest/mylib/core.py", 7, "check"),
    ]
    assert errors[1].frames[0].path.endswith("site-packages/_pytest/runner.py")


def test_pytest_short_summary_alone() -> None:
    errors = parse("pytest_tb_no")
    assert summary(errors) == [
        ("UserWarning", "careful: slow path", None, "warning"),
        ("ValueError", "value must be non-negative, got -1", None, "pytest"),
        ("mylib.core.ShapeError", "expected a 2-d shape, got (1, 2...", None, "pytest"),
        ("RuntimeError", "cannot load /nonexistent/data.csv", None, "pytest"),
        ("AssertionError", "assert 2 == 3", None, "pytest"),
        ("ExceptionGroup", "batch failed (2 sub-exceptions)", None, "pytest"),
        ("KeyError", "'db'", None, "pytest"),
    ]
    assert all(e.frames == [] for e in errors[1:])


def test_pytest_summary_line_alone() -> None:
    line = "FAILED tests/x.py::test_y - networkx.exception.NetworkXError: Graph is not directed."
    assert summary(parse_paste(line)) == [
        ("networkx.exception.NetworkXError", "Graph is not directed.", None, "pytest")
    ]


def test_did_not_raise_is_not_reported() -> None:
    for name in ("pytest_tb_long", "pytest_tb_short", "pytest_tb_line", "pytest_tb_native"):
        assert all(e.error_class != "Failed" for e in parse(name)), name


# -- IPython ----------------------------------------------------------------------------------

IPYTHON_FRAMES = [
    ("Cell In[3]", 2, None, "outer(5)"),
    ("Cell In[2]", 2, "outer", "return check(v)"),
    ("~/proj/mylib/core.py", 3, "check", 'raise ValueError(f"too big: {value}")'),
]


@pytest.mark.parametrize(
    "name", ["ipython_context", "ipython_color", "ipython_plain", "ipython_verbose"]
)
def test_ipython_modes(name: str) -> None:
    [error] = parse(name)
    assert summary([error]) == [("ValueError", "too big: 5", None, "ipython")]
    assert frames(error) == IPYTHON_FRAMES


def test_ipython_colour_codes_as_text_and_bytes() -> None:
    data = (PASTES / "ipython_chain_context.txt").read_bytes()
    assert b"\x1b[" in data
    assert summary(parse_paste(data)) == summary(parse_paste(data.decode()))
    first, last = parse_paste(data)
    assert summary([first, last]) == [
        ("ZeroDivisionError", "division by zero", "context", "ipython"),
        ("ValueError", "too big: 9", None, "ipython"),
    ]
    assert frames(first) == [("Cell In[3]", 2, None, "1 / 0")]
    assert frames(last)[0] == ("Cell In[3]", 4, None, "outer(9)")


def test_ipython_chain_cause() -> None:
    errors = parse("ipython_chain_cause")
    assert summary(errors) == [
        ("KeyError", "'k'", "cause", "ipython"),
        ("RuntimeError", "wrapped", None, "ipython"),
    ]
    assert frames(errors[1]) == [("Cell In[1]", 4, None, "raise RuntimeError('wrapped') from e")]


def test_ipython_syntax_error_and_group() -> None:
    [error] = parse("ipython_syntax_error")
    assert summary([error]) == [("SyntaxError", "invalid syntax", None, "syntax-error")]
    assert frames(error) == [("Cell In[1]", 1, None, "def f(:")]
    errors = parse("ipython_group")
    assert [(e.error_class, e.message) for e in errors] == [
        ("ValueError", "a"),
        ("TypeError", "b"),
        ("ExceptionGroup", "two (2 sub-exceptions)"),
    ]
    assert errors[2].frames[-1].path.startswith("<ipython-input-1-")


def test_older_ipython_frame_headers() -> None:
    value, syntax = parse("ipython8_context")
    assert frames(value) == [
        ("Input In [3]", 2, "<cell line: 0>", "outer(5)"),
        ("Input In [2]", 2, "outer", "return check(v)"),
        IPYTHON_FRAMES[2],
    ]
    assert frames(syntax) == [("Input In [4]", None, None, "def f(:")]
    value, syntax = parse("ipython7_context")
    assert frames(value) == [
        ("<ipython-input-3-ba10ce921533>", 2, "<cell line: 0>", "outer(5)"),
        ("<ipython-input-2-8db69eb48a33>", 2, "outer", "return check(v)"),
        IPYTHON_FRAMES[2],
    ]
    assert summary([value, syntax]) == [
        ("ValueError", "too big: 5", None, "ipython"),
        ("SyntaxError", "invalid syntax", None, "syntax-error"),
    ]
    assert frames(syntax) == [("<ipython-input-4-426f67482c1b>", 1, None, "def f(:")]


# -- warnings and logging ---------------------------------------------------------------------


def test_warnings_with_source_lines() -> None:
    errors = parse("py_warnings")
    assert summary(errors) == [
        ("DeprecationWarning", "old_api() is deprecated; use new_api()", None, "warning"),
        ("MyWarning", "first line\nsecond line: with colon", None, "warning"),
        ("UserWarning", "plain user warning", None, "warning"),
    ]
    assert frames(errors[0]) == [(f"{T}/py_warnings/main.py", 9, None, "old_api()")]
    assert frames(errors[1])[0][:2] == (f"{T}/py_warnings/mylib/core.py", 29)


def test_warning_then_traceback() -> None:
    assert summary(parse("py_warnings_then_error")) == [
        ("RuntimeWarning", "about to fail", None, "warning"),
        ("SystemError", "gave up", None, "traceback"),
    ]


def test_logging_basic_config() -> None:
    errors = parse("py_logging_basic")
    assert summary(errors) == [
        (None, "disk almost full: 95%", None, "logging"),
        (None, "request failed: status=500", None, "logging"),
        ("ValueError", "value must be non-negative, got -5", None, "logging"),
        (None, "shutting down", None, "logging"),
    ]
    logged = errors[2]
    assert logged.notes == ["check failed for item 7"]
    assert [(f.line, f.function) for f in logged.frames] == [(11, "<module>"), (8, "check")]


def test_logging_with_timestamps_and_a_chained_exception() -> None:
    errors = parse("py_logging_format")
    missing = "[Errno 2] No such file or directory: '/nonexistent/app.toml'"
    assert summary(errors) == [
        (None, "cannot bind port 8080: address in use", None, "logging"),
        ("FileNotFoundError", missing, "cause", "logging"),
        (
            "mylib.errors.ConfigError",
            f"cannot read config '/nonexistent/app.toml': {missing}",
            None,
            "logging",
        ),
        (None, "retrying in 5 s", None, "logging"),
    ]
    assert errors[2].notes == ["startup aborted"]
    assert errors[1].notes == []


def test_log_level_without_logger_name() -> None:
    text = (
        "ERROR:    Exception in ASGI application\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app.py", line 9, in app\n'
        "RuntimeError: boom\n"
    )
    [error] = parse_paste(text)
    assert summary([error]) == [("RuntimeError", "boom", None, "logging")]
    assert error.notes == ["Exception in ASGI application"]


def test_logging_info_lines_are_not_errors() -> None:
    text = "INFO:app:started\n2024-01-01 10:00:00,123 - app - INFO - ready: 3 workers\n"
    assert parse_paste(text) == []


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", " ", "\n\n\t \n", b"", b"\r\n"])
def test_empty_input(text: str | bytes) -> None:
    assert parse_paste(text) == []


def test_random_text_and_binary() -> None:
    prose = "The quick brown fox jumps over the lazy dog.\nIt was fine yesterday, honest.\n"
    assert parse_paste(prose * 50) == []
    junk = bytes(random.Random(7).randrange(256) for _ in range(20_000))
    assert isinstance(parse_paste(junk), list)
    assert parse_paste(b"\xff\xfe\nValueError: caf\xe9 \xff\n") == [
        PastedError("ValueError", "caf\ufffd \ufffd", [], None, "bare", [])
    ]


def test_orphaned_colour_codes_without_escape_bytes() -> None:
    text = "[0;31mValueError[0m: [1;32mbad value[0m\n"
    assert summary(parse_paste(text)) == [("ValueError", "bad value", None, "bare")]


def test_fifty_megabytes_parse_to_the_error_at_their_end() -> None:
    # how fast is bench/paste_speed.py's business (timed tests flake on shared machines)
    paste = fifty_megabytes()
    errors = parse_paste(paste)
    assert errors[-1].error_class == "ValueError"
    assert errors[-1].message.count("\n") == 99_999


def fifty_megabytes() -> str:
    """Real pastes and training-log noise, 50 MiB, a 1 MiB line, then a 100k-line message."""
    chunk = "".join(
        (PASTES / f"{name}.txt").read_text()
        for name in ("py_chain_mixed", "pytest_tb_short", "ipython_color", "py_logging_format")
    )
    noise = "".join(f"step {i}: loss={i / 7:.5f} lr=0.001\n" for i in range(2500))
    size = 50 * 1024 * 1024
    body = (chunk + noise) * (size // (len(chunk) + len(noise)))
    paste = body + "x" * (1 << 20) + "\nValueError: " + "long message line\n" * 100_000
    assert len(paste) >= size
    return paste


# -- properties -------------------------------------------------------------------------------

# Lines that begin something else end a message (see errdex.match.paste): keep them out.
_NOT_MESSAGE = (
    "Traceback",
    "During handling",
    "The above",
    "The stack trace below",
    "Exception Group",
    "+",
    "File ",
    "Cell In",
    "Input In",
    "=",
    "_",
    "-",
    "FAILED",
    "ERROR",
    "PASSED",
    "SKIPPED",
    "XFAIL",
    "XPASS",
    "CRITICAL",
    "FATAL",
    "WARN",
    "INFO",
    "DEBUG",
    ">>>",
    "In [",
    "$",
    "```",
    *"0123456789",
)


def _plain(line: str) -> bool:
    return not line.lstrip().startswith(_NOT_MESSAGE) and "Warning" not in line


_line = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="["),
    max_size=30,
).filter(_plain)
_messages = st.lists(_line, min_size=1, max_size=6).filter(
    lambda lines: len(lines) == 1 or bool(lines[-1].strip())
)


@settings(max_examples=150, deadline=None)
@given(lines=_messages)
def test_message_round_trips(lines: list[str]) -> None:
    message = "\n".join(lines)
    paste = f'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\nValueError: {message}'
    [error] = parse_paste(paste)
    assert (error.error_class, error.message) == ("ValueError", message)
    assert error.frames == [Frame("x.py", 1, "<module>", None)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=2000))
def test_never_raises_on_text(text: str) -> None:
    assert isinstance(parse_paste(text), list)


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=2000))
def test_never_raises_on_bytes(data: bytes) -> None:
    assert isinstance(parse_paste(data), list)


_FIXTURE_LINES = sorted(
    {line for path in PASTES.glob("*.txt") for line in path.read_text().splitlines()}
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.sampled_from(_FIXTURE_LINES), max_size=60))
def test_never_raises_on_shuffled_real_lines(lines: list[str]) -> None:
    errors = parse_paste("\n".join(lines))
    assert all(e.relation in (None, "cause", "context") for e in errors)
    assert errors == [] or errors[-1].relation is None
