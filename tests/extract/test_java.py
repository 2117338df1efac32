"""The Java extractor: every idiom on small real-looking files, names checked against javac."""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from errdex.extract.java import extract
from errdex.extract.registry import ExtractError, extractor_for, is_test_file
from errdex.extract.site import ErrorSite
from errdex.match.traces.java import parse
from errdex.source.files import default_exclusion

PATH = "src/main/java/com/acme/shapes/Shapes.java"


def sites(body: str, header: str = "package com.acme.shapes;\n") -> list[ErrorSite]:
    source = header + textwrap.dedent(body)
    return extract(source, PATH, source.splitlines())


def only(body: str, header: str = "package com.acme.shapes;\n") -> ErrorSite:
    (site,) = sites(body, header)
    return site


def test_registered_for_java_files_with_its_own_test_names() -> None:
    found = extractor_for("src/main/java/com/acme/Shapes.java")
    assert found is not None and found.language == "java" and not found.analysed
    assert is_test_file("ShapesTest.java") and is_test_file("ShapesTests.java")
    assert not is_test_file("Shapes.java") and not is_test_file("Testing.java")
    # Maven's test tree is left out by the shared folder rule (``test`` is a test folder)
    assert default_exclusion("src/test/java/com/acme/ShapesHelper.java") == "source"
    assert default_exclusion("src/main/java/com/acme/Shapes.java") is None


def test_literal_message_class_and_qualname() -> None:
    site = only(
        """
        public class Shapes {
            public void scale(double f) {
                throw new UnsupportedOperationException("shapes are immutable");
            }
        }
        """
    )
    assert site.template.display == "shapes are immutable"
    assert (site.error_class, site.qualified_class) == (
        "UnsupportedOperationException",
        "java.lang.UnsupportedOperationException",
    )
    assert (site.qualname, site.function, site.language, site.kind) == (
        "com.acme.shapes.Shapes.scale",
        "scale",
        "java",
        "throw",
    )
    assert (site.line, site.style, site.error_type) == (5, "literal", "exception")


def test_concatenation_renders_values_as_string_valueof_does() -> None:
    site = only(
        """
        class Shapes {
            void check(int r) {
                if (r <= 0) throw new IllegalArgumentException("radius " + r + ' ' + 7 + " is not positive, got " + (r * 2) + "!");
            }
        }
        """
    )
    assert site.template.display == "radius {r} 7 is not positive, got {r * 2}!"
    assert site.template.match("radius -1 7 is not positive, got -2!") == {
        "r": "-1",
        "r * 2": "-2",
    }
    assert site.style == "concat"


def test_string_format_specifiers_become_holes_named_by_their_arguments() -> None:
    site = only(
        """
        import java.util.Locale;
        class Shapes {
            void check(String name, int n, double area) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                    "shape %s has %d sides%nand area %5.2f (100%%), again %1$s and %<s", name, n, area));
            }
        }
        """
    )
    assert site.template.display == (
        "shape %s has %d sides\nand area %5.2f (100%), again %1$s and %<s"
    )
    assert [h.name for h in site.template.holes] == ["name", "n", "area", "name", "name"]
    rendered = "shape box has 4 sides\nand area  2.00 (100%), again box and box"
    assert site.template.match(rendered) == {"name": "box", "n": "4", "area": " 2.00"}
    assert site.style == "formatted"


def test_formatted_and_message_format() -> None:
    first, second = sites(
        """
        import java.text.MessageFormat;
        class Shapes {
            void a(String s) { throw new IllegalArgumentException("bad shape %s".formatted(s)); }
            void b(String s, int n) {
                throw new IllegalArgumentException(MessageFormat.format("shape ''{0}'' has {1,number} sides, '{'literal'}'", s, n));
            }
        }
        """
    )
    assert first.template.display == "bad shape %s"
    assert second.template.display == "shape '{0}' has {1,number} sides, {literal}"
    assert [h.name for h in second.template.holes] == ["s", "n"]


def test_text_blocks_and_constants_and_local_variables() -> None:
    found = sites(
        '''
        class Shapes {
            private static final String EMPTY = "no shapes given";
            void a() { throw new IllegalArgumentException(EMPTY); }
            void b(boolean strict) {
                String msg = "plain";
                if (strict) msg = "strict";
                throw new IllegalArgumentException(msg);
            }
            void c() {
                throw new IllegalStateException("""
                    first line
                      second line
                    """);
            }
            void d(String p) { String m = p; m += "!"; throw new IllegalStateException(m); }
        }
        '''
    )
    assert [s.template.display for s in found] == [
        "no shapes given",
        "plain",
        "strict",
        "first line\n  second line\n",
        "{m}",
    ]
    assert "one of 2 alternative messages" in found[1].notes


def test_ternary_message_gives_one_site_per_alternative() -> None:
    found = sites(
        """
        class Shapes {
            void a(boolean open) { throw new IllegalStateException(open ? "still open" : "closed"); }
        }
        """
    )
    assert [s.template.display for s in found] == ["still open", "closed"]


def test_throw_of_a_variable_bound_to_a_new_exception() -> None:
    site = only(
        """
        class Shapes {
            void a(int n) {
                IllegalArgumentException e = new IllegalArgumentException("bad count " + n);
                log(e);
                throw e;
            }
        }
        """
    )
    assert (site.error_class, site.template.display, site.line) == (
        "IllegalArgumentException",
        "bad count {n}",
        7,
    )
    assert site.notes == ["thrown through a variable created at line 5"]


def test_a_caught_exception_thrown_again_is_not_a_new_site() -> None:
    found = sites(
        """
        import java.io.IOException;
        class Shapes {
            void a() throws IOException {
                try { read(); } catch (IOException e) { cleanup(); throw e; }
            }
            void b() { throw failure(); }
            void c(String s) { throw NumberFormatException.forInputString(s); }
        }
        """
    )
    assert [(s.error_class, s.template.display) for s in found] == [
        (None, "{failure()}"),
        ("NumberFormatException", "{NumberFormatException.forInputString(s)}"),
    ]


def test_class_names_resolve_by_javas_rules() -> None:
    found = sites(
        """
        import java.util.*;
        import java.io.UncheckedIOException;
        import com.acme.errors.ShapeError;
        class Shapes {
            static class Broken extends RuntimeException { Broken(String m) { super(m); } }
            void a() { throw new NoSuchElementException("none"); }
            void b() { throw new UncheckedIOException("io", null); }
            void c() { throw new ShapeError("shape"); }
            void d() { throw new Broken("broken"); }
            void e() { throw new Shapes.Broken("broken again"); }
            void f() { throw new InvalidShape("local"); }
            void g() { throw new java.lang.IllegalStateException("qualified"); }
            void h() { throw new Holder<String>.Failure("generic"); }
        }
        """
    )
    assert [s.qualified_class for s in found] == [
        "java.util.NoSuchElementException",
        "java.io.UncheckedIOException",
        "com.acme.errors.ShapeError",
        "com.acme.shapes.Shapes$Broken",
        "com.acme.shapes.Shapes$Broken",
        "com.acme.shapes.InvalidShape",
        "java.lang.IllegalStateException",
        "com.acme.shapes.Holder$Failure",
    ]
    assert found[3].error_class == "Broken"


def test_require_non_null_forms() -> None:
    found = sites(
        """
        import java.util.Objects;
        import static java.util.Objects.requireNonNull;
        class Shapes {
            Shapes(String name, Object shape, Object owner) {
                Objects.requireNonNull(name, "name must not be null");
                requireNonNull(shape);
                Objects.requireNonNull(owner, () -> "owner of " + name + " is missing");
                other.requireNonNull(owner, "not the JDK's");
            }
        }
        """
    )
    assert [(s.error_class, s.template.display, s.qualname) for s in found] == [
        ("NullPointerException", "name must not be null", "com.acme.shapes.Shapes.<init>"),
        ("NullPointerException", "", "com.acme.shapes.Shapes.<init>"),
        ("NullPointerException", "owner of {name} is missing", "com.acme.shapes.Shapes.<init>"),
    ]
    assert [g.text for g in found[0].guards] == ["name == null"]
    assert found[0].qualified_class == "java.lang.NullPointerException"


def test_guava_preconditions_fill_only_percent_s() -> None:
    found = sites(
        """
        import com.google.common.base.Preconditions;
        import static com.google.common.base.Preconditions.checkState;
        class Shapes {
            void a(int n, int max, String name) {
                Preconditions.checkArgument(n >= 0, "n (%s) must be non-negative, %d is ignored", n);
                checkState(!closed, "shape %s is closed", name, n, max);
                Preconditions.checkNotNull(name, "name");
                Preconditions.checkArgument(n < max);
                Preconditions.checkArgument(n != 3, "%s %s", n);
            }
        }
        """
    )
    assert [(s.error_class, s.template.display) for s in found] == [
        ("IllegalArgumentException", "n (%s) must be non-negative, %d is ignored"),
        ("IllegalStateException", "shape %s is closed [%s, %s]"),
        ("NullPointerException", "name"),
        ("IllegalArgumentException", ""),
        ("IllegalArgumentException", "%s %s"),
    ]
    assert found[1].template.match("shape box is closed [1, 2]") == {
        "name": "box",
        "n": "1",
        "max": "2",
    }
    assert found[4].template.match("3 %s") == {"n": "3"}  # too few arguments: %s stays
    assert [g.text for s in found for g in s.guards] == [
        "n < 0",
        "closed",
        "name == null",
        "n >= max",
        "n == 3",
    ]


def test_logger_calls_are_console_sites() -> None:
    found = sites(
        """
        import org.slf4j.Logger;
        class Shapes {
            private static final Logger LOG = LoggerFactory.getLogger(Shapes.class);
            void a(String name, Exception e) {
                LOG.error("could not draw {} ({})", name, e.getMessage(), e);
                logger.warn("slow draw of " + name);
                this.log.warning("legacy");
                LOG.info("not a site");
                errors.error("not a logger");
            }
        }
        """
    )
    assert [(s.kind, s.error_type, s.severity, s.template.display) for s in found] == [
        ("log", "console", "error", "could not draw {} ({})"),
        ("log", "console", "warning", "slow draw of {name}"),
        ("log", "console", "warning", "legacy"),
    ]
    assert [h.name for h in found[0].template.holes] == ["name", "e.getMessage()"]


def test_guards_in_source_form() -> None:
    found = sites(
        """
        class Shapes {
            void a(int n, java.util.List<String> names) {
                if (n < 0) {
                    throw new IllegalArgumentException("negative");
                } else if (n == 0) {
                    throw new IllegalArgumentException("zero");
                } else {
                    for (String s : names) {
                        switch (s) {
                            case "x", "y":
                                throw new IllegalArgumentException("axis");
                            default:
                                while (s.isEmpty()) { throw new IllegalStateException("empty"); }
                        }
                    }
                }
                try { draw(); } catch (java.io.IOException | RuntimeException e) {
                    throw new IllegalStateException("draw failed", e);
                }
                Object v = switch (n) { case 1 -> "one"; default -> throw new IllegalStateException("many"); };
                if (!names.isEmpty()) {} else { throw new IllegalStateException("no names"); }
            }
        }
        """
    )
    got = {s.template.display: [(g.kind, g.text) for g in s.guards] for s in found}
    assert got["negative"] == [("if", "n < 0")]
    assert got["zero"] == [("else", "n >= 0"), ("elif", "n == 0")]
    assert got["axis"] == [
        ("else", "n >= 0"),
        ("else", "n != 0"),
        ("for", "for (String s : names)"),
        ("case", 's matches "x", "y"'),
    ]
    assert got["empty"][-2:] == [("case", "s matches no other case"), ("while", "s.isEmpty()")]
    assert got["draw failed"] == [
        ("except", "java.io.IOException | RuntimeException was thrown (as e)")
    ]
    assert got["many"] == [("case", "n matches no other case")]
    assert got["no names"] == [("else", "names.isEmpty()")]


def test_a_file_the_grammar_cannot_read_is_refused() -> None:
    text = "this is not java at all ((( {{{ \n" * 5
    with pytest.raises(ExtractError):
        extract(text, "Broken.java", text.splitlines())


NAMES = """\
package demo.names;

public class Outer {
    static Runnable field = new Runnable() {
        public void run() { throw new IllegalStateException("anonymous in a field"); }
    };
    static final Runnable LAMBDA = () -> { throw new IllegalStateException("static lambda"); };

    class Inner {
        void go() {
            Runnable r = new Runnable() {
                public void run() { throw new IllegalStateException("anonymous in inner"); }
            };
            r.run();
        }
    }

    static class Nested {
        Nested() { throw new IllegalStateException("constructor"); }
    }

    enum Mode {
        FAST { void go() { throw new IllegalStateException("enum constant body"); } };
        abstract void go();
    }

    static void locals(int which) {
        class Local {
            void go() { throw new IllegalStateException("local class"); }
        }
        Runnable outer = () -> {
            Runnable inner = () -> { throw new IllegalStateException("inner lambda"); };
            inner.run();
        };
        if (which == 0) new Local().go();
        outer.run();
    }

    public static void main(String[] args) {
        int which = Integer.parseInt(args[0]);
        switch (which) {
            case 0: case 1: locals(which); break;
            case 2: field.run(); break;
            case 3: LAMBDA.run(); break;
            case 4: new Outer().new Inner().go(); break;
            case 5: new Nested(); break;
            case 6: Mode.FAST.go(); break;
            default: break;
        }
    }
}
"""


@pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK (javac, java)")
@pytest.mark.parametrize("which", range(7))
def test_qualnames_are_the_frames_java_prints(tmp_path: Path, which: int) -> None:
    """Compiled with javac and run: the innermost frame names the site's qualname."""
    source = tmp_path / "src" / "demo" / "names" / "Outer.java"
    source.parent.mkdir(parents=True)
    source.write_text(NAMES)
    out = tmp_path / "out"
    subprocess.run(["javac", "-d", str(out), str(source)], check=True, timeout=120)
    done = subprocess.run(
        ["java", "-cp", str(out), "demo.names.Outer", str(which)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    error = parse(done.stderr)[-1]
    innermost = error.frames[-1]
    assert innermost.path == "demo/names/Outer.java"
    by_line = {s.line: s for s in extract(NAMES, "Outer.java", NAMES.splitlines())}
    site = by_line[innermost.line or 0]
    assert site.template.display == error.message
    frame_line = next(ln for ln in done.stderr.splitlines() if ln.startswith("\tat "))
    printed = frame_line.removeprefix("\tat ").split("(")[0]
    assert site.qualname == printed
    assert site.function == innermost.function


def test_preconditions_of_a_shaded_guava_and_without_an_import() -> None:
    found = sites(
        """
        import org.acme.shaded.com.google.common.base.Preconditions;
        class Shapes {
            void a(int n) {
                Preconditions.checkArgument(n > 0, "n must be positive");
                com.google.common.base.Preconditions.checkState(n < 9, "n too large");
                Validate.checkArgument(n != 4, "not Guava's");
            }
        }
        """
    )
    assert [(s.error_class, s.template.display) for s in found] == [
        ("IllegalArgumentException", "n must be positive"),
        ("IllegalStateException", "n too large"),
    ]


def test_a_bare_call_resolves_to_this_files_method_before_any_static_import() -> None:
    found = sites(
        """
        import static java.util.Objects.*;
        class Shapes {
            static <T> T requireNonNull(T o, String m) { if (o == null) throw new NullPointerException(); return o; }
            void a(Object o) { requireNonNull(o, "shadowed by the class's own method"); }
            class Inner { void b(Object o) { requireNonNull(o, "and in its inner classes"); } }
        }
        class Other {
            void c(Object o) { requireNonNull(o, "the JDK's through the static import"); }
        }
        """
    )
    assert [s.template.display for s in found] == ["", "the JDK's through the static import"]
    found = sites(
        """
        package java.util;
        public final class Objects {
            public static <T> T requireNonNull(T obj) { return obj; }
            public static <T> T requireNonNullElse(T obj, T dflt) {
                return (obj != null) ? obj : requireNonNull(dflt, "defaultObj");
            }
        }
        """,
        header="",
    )
    assert [(s.error_class, s.template.display) for s in found] == [
        ("NullPointerException", "defaultObj")
    ]
    found = sites(
        """
        import static jdk.internal.module.Checks.*;
        import static java.util.Objects.*;
        class Shapes { void a(Object v) { version = requireNonNull(v); } }
        """
    )
    assert [s.error_class for s in found] == ["NullPointerException"]


def test_assert_with_a_message_is_an_assertion_error_site() -> None:
    site = only(
        """
        class Shapes {
            void a(int x) {
                assert x > 0 : "x must be positive, got " + x;
                assert x != 3;
            }
        }
        """
    )
    assert (site.kind, site.error_class, site.qualified_class, site.template.display) == (
        "assert",
        "AssertionError",
        "java.lang.AssertionError",
        "x must be positive, got {x}",
    )
    assert [(g.kind, g.text) for g in site.guards] == [("assert", "x <= 0")]


def test_a_message_built_in_the_exception_classs_own_constructor() -> None:
    found = sites(
        """
        class ShapeError extends RuntimeException {
            ShapeError(String name, int sides) {
                super("shape " + name + " cannot have " + sides + " sides");
            }
            ShapeError(String name) { this(name, 0); }
            ShapeError() { super(); }
        }
        class Shapes {
            void a(String n) { throw new ShapeError(n, n.length()); }
            void b(String name) { throw new ShapeError(name); }
            void c() { throw new ShapeError(); }
        }
        """
    )
    assert [(s.template.display, s.style) for s in found] == [
        ("shape {n} cannot have {n.length()} sides", "class_init"),
        ("{name}", "variable"),  # this(…): not followed
        ("", "class_init"),
    ]


def test_spring_response_status_exceptions_carry_their_http_status() -> None:
    found = sites(
        """
        import org.springframework.http.HttpStatus;
        import org.springframework.web.server.ResponseStatusException;
        class Shapes {
            Shape get(String id) {
                if (id.isEmpty()) throw new ResponseStatusException(HttpStatus.BAD_REQUEST);
                throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no shape " + id);
            }
            void put() { throw new ResponseStatusException(HttpStatusCode.valueOf(409), "taken"); }
        }
        """
    )
    assert [(s.http_status, s.error_type, s.template.display) for s in found] == [
        (400, "http", "400 BAD_REQUEST"),
        (404, "http", '404 NOT_FOUND "no shape {id}"'),
        (409, "http", '409 CONFLICT "taken"'),
    ]
    assert found[1].template.match('404 NOT_FOUND "no shape c1"') == {"id": "c1"}
