"""Java stack traces: parsed strictly, and matched back to their sites end to end.

The end-to-end tests compile code written for them with javac, run it to provoke real
exceptions, scan the sources for real into SQLite and match the printed trace; the
JDK's own sources (``lib/src.zip`` of an installed JDK) are the real library scanned.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap
import zipfile
from pathlib import Path

import pytest

from errdex.match import match
from errdex.match.api import errors_in
from errdex.match.layouts import frame_keys, record_keys
from errdex.match.traces.java import frame_path, parse
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

SHA = "0123456789abcdef0123456789abcdef01234567"

CHAIN = """\
Exception in thread "main" java.lang.RuntimeException: wrapped: s must not be null
\tat demo.app.Chain.main(Chain.java:21)
Caused by: java.lang.NullPointerException: s must not be null
\tat java.base/java.util.Objects.requireNonNull(Objects.java:235)
\tat demo.app.Chain.inner(Chain.java:10)
\tat demo.app.Chain.middle(Chain.java:14)
\tat demo.app.Chain.main(Chain.java:19)
\tSuppressed: java.lang.IllegalStateException: closing failed
\t\tat demo.app.Chain$Res.close(Chain.java:7)
\t\tat demo.app.Chain.middle(Chain.java:13)
\t\t... 1 more
"""


def test_a_chain_comes_back_cause_first_with_frames_outermost_first() -> None:
    suppressed, cause, final = parse(CHAIN)
    assert (final.error_class, final.message, final.relation) == (
        "java.lang.RuntimeException",
        "wrapped: s must not be null",
        None,
    )
    assert [(f.path, f.line, f.function) for f in final.frames] == [
        ("demo/app/Chain.java", 21, "main")
    ]
    assert (cause.error_class, cause.relation) == ("java.lang.NullPointerException", "cause")
    assert [(f.path, f.line) for f in cause.frames] == [
        ("demo/app/Chain.java", 19),
        ("demo/app/Chain.java", 14),
        ("demo/app/Chain.java", 10),
        ("java.base/java/util/Objects.java", 235),
    ]
    assert (suppressed.message, suppressed.relation) == ("closing failed", "context")
    # ``... 1 more`` is the last frame of the trace it is printed in (main, line 19)
    assert [(f.function, f.line) for f in suppressed.frames] == [
        ("main", 19),
        ("middle", 13),
        ("close", 7),
    ]


def test_causes_several_deep_and_common_frames_filled_in() -> None:
    text = textwrap.dedent(
        """\
        com.acme.AppException: top
        \tat com.acme.App.run(App.java:30)
        \tat com.acme.App.main(App.java:5)
        Caused by: com.acme.DbException: middle
        \tat com.acme.Db.query(Db.java:12)
        \t... 2 more
        Caused by: java.sql.SQLException: root
        \tat com.acme.Db.connect(Db.java:40)
        \t... 3 more
        """
    )
    root, middle, top = parse(text)
    assert [e.message for e in (root, middle, top)] == ["root", "middle", "top"]
    assert [e.relation for e in (root, middle, top)] == ["cause", "cause", None]
    assert [f.line for f in middle.frames] == [5, 30, 12]
    assert [f.line for f in root.frames] == [5, 30, 12, 40]


def test_frame_forms_native_unknown_modules_and_loaders() -> None:
    text = textwrap.dedent(
        """\
        java.lang.IllegalStateException
        \tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
        \tat com.acme.Gen$$Lambda$14/0x0000000800c03000.run(Unknown Source)
        \tat app//com.acme.Loaded.go(Loaded.java:3)
        \tat lib/com.acme.mod@1.2.0/com.acme.mod.Api.call(Api.java:9)
        \tat com.acme.Outer$Inner.<init>(Outer.java:17)
        \tat com.acme.Outer.<clinit>(Outer.java)
        """
    )
    (error,) = parse(text)
    assert (error.error_class, error.message) == ("java.lang.IllegalStateException", "")
    assert [(f.path, f.line, f.function) for f in reversed(error.frames)] == [
        ("java.base/jdk/internal/reflect/NativeMethodAccessorImpl.java", None, "invoke0"),
        ("com/acme/Gen.java", None, "run"),
        ("com/acme/Loaded.java", 3, "go"),
        ("com.acme.mod/com/acme/mod/Api.java", 9, "call"),
        ("com/acme/Outer.java", 17, "<init>"),
        ("com/acme/Outer.java", None, "<clinit>"),
    ]


def test_frame_path_from_class_and_file() -> None:
    assert frame_path("", "com.x.Y.method", "Y.java") == "com/x/Y.java"
    assert frame_path("", "com.x.Y$Inner.method", "Y.java") == "com/x/Y.java"
    assert frame_path("java.base/", "java.util.Objects.f", "Objects.java") == (
        "java.base/java/util/Objects.java"
    )
    assert frame_path("m@3/", "p.K.f", None) == "m/p/K.java"
    assert frame_path("", "Main.main", "Main.java") == "Main.java"


def test_a_multi_line_message_and_a_logged_trace() -> None:
    text = textwrap.dedent(
        """\
        2026-12-01 10:00:00 ERROR [main] com.acme.App - request failed
        java.lang.IllegalArgumentException: first line
        second line
        \tat com.acme.App.handle(App.java:88)
        """
    )
    (error,) = parse(text)
    assert error.message == "first line\nsecond line"
    assert error.frames[0].line == 88
    # a message line that looks like ``Name: text`` is still the message
    (error,) = parse(
        "java.lang.IllegalStateException: bad config\nkey: value\n\tat a.B.c(B.java:1)\n"
    )
    assert (error.error_class, error.message) == (
        "java.lang.IllegalStateException",
        "bad config\nkey: value",
    )
    # a plain ``Name: message`` right above frames is a header (a default-package class)
    (error,) = parse("Oops: it broke\n\tat Main.main(Main.java:3)\n")
    assert (error.error_class, error.message, error.frames[0].path) == (
        "Oops",
        "it broke",
        "Main.java",
    )


def test_only_real_java_traces_are_parsed() -> None:
    python = (
        'Traceback (most recent call last):\n  File "m.py", line 1, in <module>\nValueError: bad\n'
    )
    node = "TypeError: x is not a function\n    at Object.<anonymous> (/app/index.js:3:5)\n"
    prose = "The error java.lang.Foo: bar happened\nat home (yesterday)\n"
    header_only = "java.lang.IllegalStateException: no frames follow\n"
    for text in (python, node, prose, header_only, ""):
        assert parse(text) == []
    # and through the paste reader: a Python traceback is still Python's
    (py_error,) = errors_in(python)
    assert (py_error.error_class, py_error.source_format) == ("ValueError", "traceback")
    (java_error,) = errors_in(CHAIN)[-1:]
    assert java_error.source_format == "java"


def test_maven_layout_records_are_keyed_by_their_package_path() -> None:
    assert "com/x/Y.java" in record_keys("src/main/java/com/x/Y.java")
    assert "com/x/Y.java" in record_keys("core/src/main/java/com/x/Y.java")
    assert "com/x/Y.java" in frame_keys("com/x/Y.java")
    # Python's keys are unchanged by the Java rule
    assert record_keys("src/click/core.py") == ("src/click/core.py", "click/core.py")


# -- end to end -----------------------------------------------------------------------

SHAPES = """\
package com.acme.shapes;

import com.google.common.base.Preconditions;
import java.text.MessageFormat;
import java.util.Objects;

public class Shapes {
    static final class ShapeException extends RuntimeException {
        ShapeException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    static double circle(double r) {
        if (r <= 0) {
            throw new IllegalArgumentException("radius must be positive, got " + r);
        }
        return Math.PI * r * r;
    }

    static String polygon(String name, int sides) {
        if (sides < 3) {
            throw new IllegalStateException(
                String.format("polygon %s needs at least 3 sides, has %d", name, sides));
        }
        return name;
    }

    static void rename(String from, String to) {
        Objects.requireNonNull(to, "new name must not be null");
    }

    static void scale(double factor) {
        Preconditions.checkArgument(factor > 0, "scale factor %s is not positive", factor);
    }

    static void load(String path) {
        IllegalArgumentException e =
            new IllegalArgumentException(MessageFormat.format("cannot load shape from ''{0}''", path));
        throw e;
    }

    static void draw(String name) {
        try {
            circle(-1);
        } catch (IllegalArgumentException e) {
            throw new ShapeException("cannot draw " + name, e);
        }
    }

    static void each(String[] names) {
        for (String name : names) {
            Runnable check = () -> {
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("empty shape name in a list of " + names.length);
                }
            };
            check.run();
        }
    }

    static double area(double a) {
        assert a >= 0 : "area must not be negative: " + a;
        return a;
    }

    public static void main(String[] args) {
        switch (args[0]) {
            case "area": area(-1.5); break;
            case "circle": circle(-2.5); break;
            case "polygon": polygon("line", 2); break;
            case "rename": rename("box", null); break;
            case "scale": scale(-3); break;
            case "load": load("x.svg"); break;
            case "draw": draw("box"); break;
            case "each": each(new String[] {"a", "", "c"}); break;
            default: break;
        }
    }
}
"""

GUAVA = Path("/usr/share/java/guava.jar")
needs_jdk = pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK (javac, java)")


def _catalogue(root: Path, repo: str) -> Path:
    checkout = open_source(str(root), repo=repo, sha=SHA)
    result = scan_checkout(checkout, repo=repo)
    assert not result.skipped, result.skipped
    db = root / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, repo, result, "2026-12-01T00:00:00.000Z")
    return db


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or not GUAVA.exists():
        pytest.skip("needs a JDK and Debian's libguava-java")
    root = tmp_path_factory.mktemp("shapes")
    source = root / "src" / "main" / "java" / "com" / "acme" / "shapes" / "Shapes.java"
    source.parent.mkdir(parents=True)
    source.write_text(SHAPES)
    out = root / "classes"
    subprocess.run(
        ["javac", "-cp", str(GUAVA), "-d", str(out), str(source)], check=True, timeout=120
    )
    return _catalogue(root, "acme/shapes"), out


def _line(needle: str) -> int:
    return next(n for n, text in enumerate(SHAPES.splitlines(), 1) if needle in text)


@needs_jdk
@pytest.mark.parametrize(
    ("scenario", "needle", "error_class", "holes"),
    [
        ("circle", "radius must be positive", "IllegalArgumentException", {"r": "-2.5"}),
        (
            "polygon",
            "throw new IllegalStateException(",
            "IllegalStateException",
            {"name": "line", "sides": "2"},
        ),
        ("rename", "requireNonNull(to", "NullPointerException", {}),
        ("scale", "checkArgument(factor", "IllegalArgumentException", {"factor": "-3.0"}),
        ("load", "throw e;", "IllegalArgumentException", {"path": "x.svg"}),
        ("draw", "new ShapeException(", "ShapeException", {"name": "box"}),
        ("each", "empty shape name", "IllegalArgumentException", {"names.length": "3"}),
        ("area", "assert a >= 0", "AssertionError", {"a": "-1.5"}),
    ],
)
def test_real_java_exceptions_match_their_site_top_1(
    shapes: tuple[Path, Path],
    scenario: str,
    needle: str,
    error_class: str,
    holes: dict[str, str],
) -> None:
    db, classes = shapes
    done = subprocess.run(
        ["java", "-ea", "-cp", f"{classes}:{GUAVA}", "com.acme.shapes.Shapes", scenario],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "\tat com.acme.shapes.Shapes" in done.stderr, done.stderr
    best = match(done.stderr, db=db)[0]
    assert best.filePath == "src/main/java/com/acme/shapes/Shapes.java"
    assert best.lineNumber == _line(needle)
    assert best.errorClass == error_class
    assert best.holes == holes
    assert best.confidence >= 0.9


JDK_FILES = (
    "java.base/java/util/Optional.java",
    "java.base/java/util/Objects.java",
    "java.base/java/util/UUID.java",
    "java.base/java/util/ArrayDeque.java",
    "java.base/java/lang/Character.java",
    "java.base/java/lang/Enum.java",
    "java.base/java/lang/Integer.java",
)

PROVOKE = """\
import java.util.*;

public class Provoke {
    public static void main(String[] args) {
        switch (args[0]) {
            case "optional": Optional.empty().get(); break;
            case "objects": Objects.requireNonNull(null, "config is required"); break;
            case "uuid": UUID.fromString("not-a-uuid"); break;
            case "deque": new ArrayDeque<String>().removeFirst(); break;
            case "codepoint": Character.toChars(-5); break;
            case "enum": Thread.State.valueOf("SLEEPING"); break;
            case "parse": Integer.parseInt("12x"); break;
            default: break;
        }
    }
}
"""


def _jdk_with_sources() -> Path | None:
    """An installed JDK whose ``lib/src.zip`` is really there (Debian's is a dangling link
    unless openjdk-*-source is installed)."""
    for home in sorted(Path("/usr/lib/jvm").glob("*")):
        src = home / "lib" / "src.zip"
        if src.is_file() and (home / "bin" / "javac").exists():
            return home
    return None


@pytest.fixture(scope="module")
def jdk(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    home = _jdk_with_sources() if Path("/usr/lib/jvm").is_dir() else None
    if home is None:
        pytest.skip("needs an installed JDK that ships lib/src.zip")
    root = tmp_path_factory.mktemp("jdk")
    with zipfile.ZipFile(home / "lib" / "src.zip") as archive:
        for name in JDK_FILES:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(archive.read(name))
    work = tmp_path_factory.mktemp("provoke")
    (work / "Provoke.java").write_text(PROVOKE)
    javac = home / "bin" / "javac"
    subprocess.run([str(javac), "-d", str(work), str(work / "Provoke.java")], check=True)
    return home, _catalogue(root, "openjdk/jdk"), work


@pytest.mark.parametrize(
    ("scenario", "path", "needle", "error_class"),
    [
        ("optional", "java/util/Optional.java", '"No value present"', "NoSuchElementException"),
        ("objects", "java/util/Objects.java", "NullPointerException(message)", None),
        ("uuid", "java/util/UUID.java", "Invalid UUID string", "IllegalArgumentException"),
        ("deque", "java/util/ArrayDeque.java", "NoSuchElementException()", None),
        ("codepoint", "java/lang/Character.java", "Not a valid Unicode code point", None),
        ("enum", "java/lang/Enum.java", '"No enum constant "', "IllegalArgumentException"),
        ("parse", "java/lang/Integer.java", "forInputString(s, radix)", None),
    ],
)
def test_the_jdks_own_sources_match_real_jdk_errors(
    jdk: tuple[Path, Path, Path],
    scenario: str,
    path: str,
    needle: str,
    error_class: str | None,
) -> None:
    """The JDK's ``java.base`` sources scanned, its errors provoked by a real run: the
    innermost frame that lands in the scanned files is the site, top 1."""
    home, db, work = jdk
    done = subprocess.run(
        [str(home / "bin" / "java"), "-cp", str(work), "Provoke", scenario],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    error = parse(done.stderr)[-1]
    best = match(done.stderr, db=db)[0]
    assert best.filePath == f"java.base/{path}"
    scanned = (db.parent / best.filePath).read_text().splitlines()
    assert needle in scanned[best.lineNumber - 1] or needle in scanned[best.lineNumber]
    # the site is on the line the innermost frame in this file printed
    in_file = [f for f in error.frames if f.path == best.filePath]
    assert in_file and abs((in_file[-1].line or 0) - best.lineNumber) <= 1
    if error_class is not None:
        assert best.errorClass == error_class
