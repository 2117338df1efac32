"""The JavaScript/TypeScript extractor on small real-looking files, one idiom per test."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from errdex.extract.javascript import extract
from errdex.extract.registry import ExtractError, extractor_for, is_test_file
from errdex.extract.site import ErrorSite


def sites(code: str, path: str = "lib/core/x.js") -> list[ErrorSite]:
    text = textwrap.dedent(code)
    return extract(text, path, text.splitlines())


def only(code: str, path: str = "lib/core/x.js") -> ErrorSite:
    (site,) = sites(code, path)
    return site


def guards(site: ErrorSite) -> list[tuple[str, str]]:
    return [(g.kind, g.text) for g in site.guards]


def test_throw_new_with_a_literal_message() -> None:
    site = only(
        """\
        function parse(input) {
          throw new TypeError("input must be a string");
        }
        """
    )
    assert (site.kind, site.style, site.error_class, site.template.display) == (
        "throw",
        "new",
        "TypeError",
        "input must be a string",
    )
    assert (site.line, site.language, site.error_type, site.severity) == (
        2,
        "javascript",
        "exception",
        "error",
    )
    assert (site.qualname, site.function) == ("parse", "parse")


def test_throw_without_new_and_escapes_decoded() -> None:
    site = only("throw Error('can\\'t read \\u00e9t\\xe9\\n');\n")
    assert (site.style, site.error_class, site.template.display) == (
        "call",
        "Error",
        "can't read été\n",
    )


def test_template_literal_holes_are_named_after_their_expressions() -> None:
    site = only("throw new RangeError(`index ${i} out of range for ${arr.length} items`);\n")
    assert site.template.display == "index ${i} out of range for ${arr.length} items"
    assert [h.name for h in site.template.holes] == ["i", "arr.length"]
    assert site.template.match("index 7 out of range for 3 items") == {"i": "7", "arr.length": "3"}


def test_concatenation_joins_text_and_values() -> None:
    site = only("throw new Error('Unknown option ' + opt + ' (' + String(n) + ')');\n")
    assert site.template.display == "Unknown option {opt} ({String(n)})"


def test_a_message_variable_is_followed_to_its_text() -> None:
    site = only(
        """\
        function check(handle, method) {
          var type = toString.call(handle);
          var msg = 'Route.' + method + '() requires a callback function but got a ' + type;
          throw new Error(msg);
        }
        """
    )
    # ``type`` holds no text of its own, so it stays a hole named by the variable
    assert site.template.display == "Route.{method}() requires a callback function but got a {type}"


def test_alternatives_of_a_conditional_message() -> None:
    found = sites("throw new Error(many ? 'no items left' : `item ${name} is gone`);\n")
    assert [s.template.display for s in found] == ["no items left", "item ${name} is gone"]
    assert all("one of 2 alternative messages" in s.notes for s in found)


def test_throw_err_resolves_to_the_error_bound_in_the_function() -> None:
    site = only(
        """\
        function open(path) {
          const err = new Error(`cannot open ${path}`, { cause: lastError });
          err.code = 'ERR_CANNOT_OPEN';
          err.path = path;
          throw err;
        }
        """
    )
    assert (site.line, site.error_class, site.template.display) == (
        5,
        "Error",
        "cannot open ${path}",
    )
    assert (site.cause, site.error_code, site.error_type) == (
        "lastError",
        "ERR_CANNOT_OPEN",
        "error_code",
    )
    assert "the error was made at line 2 and bound to err" in site.notes


def test_rethrowing_the_caught_error_is_not_a_new_site() -> None:
    found = sites(
        """\
        function run(job, fail) {
          try {
            job();
          } catch (e) {
            throw e;
          }
          throw fail;
        }
        """
    )
    (site,) = found
    assert (site.line, site.style, site.error_class, site.template.display) == (
        7,
        "variable",
        None,
        "{fail}",
    )


def test_cause_is_recorded() -> None:
    site = only("throw new Error('request failed', { cause: err });\n")
    assert (site.cause, site.error_code) == ("err", None)


@pytest.mark.parametrize(
    "code",
    [
        "throw new Error('no such file', { code: 'ERR_NO_FILE' });\n",
        "throw Object.assign(new Error('no such file'), { code: 'ERR_NO_FILE' });\n",
        "throw new AxiosError('no such file', AxiosError.ERR_NO_FILE, config);\n",
        "throw new NodeError('no such file', 'ERR_NO_FILE');\n",
    ],
)
def test_error_codes_in_the_construction(code: str) -> None:
    site = only(code)
    assert (site.error_code, site.error_type, site.template.display) == (
        "ERR_NO_FILE",
        "error_code",
        "no such file",
    )


def test_a_node_style_error_class_sets_its_code_in_the_constructor() -> None:
    found = sites(
        """\
        class ERR_INVALID_ARG extends TypeError {
          constructor(name) {
            super(`The "${name}" argument is invalid`);
            this.code = 'ERR_INVALID_ARG';
          }
        }
        class ERR_MISSING_ARG extends ERR_INVALID_ARG {}
        export function need(x) {
          if (x === undefined) throw new ERR_MISSING_ARG('x');
        }
        """,
        "lib/internal/errors.js",
    )
    (site,) = found
    assert (site.error_class, site.qualified_class, site.error_code) == (
        "ERR_MISSING_ARG",
        "lib/internal/errors.ERR_MISSING_ARG",
        "ERR_INVALID_ARG",
    )
    assert guards(site) == [("if", "x === undefined")]


def test_console_error_and_warn_are_logs_with_their_severity() -> None:
    found = sites(
        """\
        console.error('failed to load %s: %d bytes', file, size, extra);
        console.warn(`deprecated: ${name}`);
        console.log('not an error');
        """
    )
    error, warn = found
    assert (error.kind, error.error_type, error.severity) == ("log", "console", "error")
    assert error.template.display == "failed to load %s: %d bytes {extra}"
    assert error.template.match("failed to load a.txt: 12 bytes more") is not None
    assert (warn.severity, warn.template.display) == ("warning", "deprecated: ${name}")


def test_http_error_responses_carry_their_status() -> None:
    found = sites(
        """\
        app.get('/users/:id', (req, res, next) => {
          if (!req.user) return res.status(401).json({ error: 'login required' });
          if (!found) return res.status(404).send(`no user ${req.params.id}`);
          if (banned) return res.sendStatus(403);
          if (late) return next(createError(503, 'try again later'));
          res.status(200).json({ message: 'fine' });
        });
        router.use(async (ctx) => { ctx.throw(400, 'name required'); });
        """
    )
    got = [(s.line, s.http_status, s.error_type, s.error_class, s.template.display) for s in found]
    assert got == [
        (2, 401, "http", None, "login required"),
        (3, 404, "http", None, "no user ${req.params.id}"),
        (4, 403, "http", None, "Forbidden"),
        (5, 503, "http", "ServiceUnavailableError", "try again later"),
        (8, 400, "http", "BadRequestError", "name required"),
    ]
    assert guards(found[0]) == [("if", "!req.user")]


def test_http_errors_made_and_thrown() -> None:
    site = only(
        """\
        const createError = require('http-errors');
        function load(id) {
          throw createError(404);
        }
        """
    )
    assert (site.error_class, site.qualified_class, site.http_status, site.template.display) == (
        "NotFoundError",
        "http-errors.NotFoundError",
        404,
        "Not Found",
    )


def test_rejections_are_sites() -> None:
    found = sites(
        """\
        function wait(ms) {
          if (ms < 0) return Promise.reject(new RangeError('ms must be positive'));
          return new Promise((resolve, reject) => {
            setTimeout(() => reject(new Error(`timed out after ${ms}ms`)), ms);
          });
        }
        """
    )
    assert [(s.style, s.error_class, s.template.display) for s in found] == [
        ("reject", "RangeError", "ms must be positive"),
        ("reject", "Error", "timed out after ${ms}ms"),
    ]
    assert found[1].qualname == "wait.<anonymous>.<anonymous>"


def test_classes_are_qualified_by_the_module_they_come_from() -> None:
    found = sites(
        """\
        import AxiosError from '../core/AxiosError.js';
        import { CanceledError as Cancel } from '../cancel/index.js';
        const { ValidationError } = require('./errors');
        const errors = require('restify-errors');
        throw new AxiosError('a');
        throw new Cancel('b');
        throw new ValidationError('c');
        throw new errors.NotFoundError('d');
        throw new TypeError('e');
        """,
        "lib/helpers/validator.js",
    )
    assert [(s.error_class, s.qualified_class) for s in found] == [
        ("AxiosError", "lib/core/AxiosError.AxiosError"),
        ("Cancel", "lib/cancel.CanceledError"),
        ("ValidationError", "lib/helpers/errors.ValidationError"),
        ("NotFoundError", "restify-errors.NotFoundError"),
        ("TypeError", "TypeError"),
    ]


def test_guards_from_if_else_switch_and_catch() -> None:
    found = sites(
        """\
        function pick(kind, value) {
          if (typeof value !== 'number') {
            throw new TypeError('value must be a number');
          } else if (value < 0) {
            throw new RangeError('value must be positive');
          } else {
            switch (kind) {
              case 'int':
                throw new Error('ints are not supported');
              default:
                throw new Error('unknown kind');
            }
          }
          try { run(); } catch (err) { throw new Error('run failed', { cause: err }); }
        }
        """
    )
    assert [guards(s) for s in found] == [
        [("if", "typeof value !== 'number'")],
        [("else", "typeof value === 'number'"), ("elif", "value < 0")],
        [("else", "typeof value === 'number'"), ("else", "value >= 0"), ("case", "kind === 'int'")],
        [
            ("else", "typeof value === 'number'"),
            ("else", "value >= 0"),
            ("case", "kind matches no case"),
        ],
        [("except", "catch (err)")],
    ]


def test_function_names_as_readers_and_v8_give_them() -> None:
    found = sites(
        """\
        class AxiosError extends Error {
          static from(error) { throw new AxiosError('from'); }
          toJSON() { throw new Error('json'); }
        }
        const build = async (x) => { throw new Error('build'); };
        app.use = function use(fn) { throw new TypeError('use'); };
        const utils = { merge() { throw new Error('merge'); } };
        module.exports = function createApplication() { throw new Error('create'); };
        """
    )
    assert [(s.qualname, s.function) for s in found] == [
        ("AxiosError.from", "from"),
        ("AxiosError.toJSON", "toJSON"),
        ("build", "build"),
        ("app.use", "use"),
        ("utils.merge", "merge"),
        ("createApplication", "createApplication"),
    ]
    assert found[0].qualified_class == "lib/core/x.AxiosError"


def test_typescript_and_tsx() -> None:
    ts = only(
        """\
        export class Store<T> {
          get(key: string): T {
            const value = this.items.get(key) as T | undefined;
            if (value === undefined) throw new KeyError(`no item ${key!}`);
            return value;
          }
        }
        """,
        "src/store.ts",
    )
    assert (ts.language, ts.qualname, ts.template.display) == (
        "typescript",
        "Store.get",
        "no item ${key!}",
    )
    tsx = only(
        """\
        export function Panel({ user }: { user?: User }) {
          if (!user) throw new Error('Panel needs a user');
          return <div className="panel">{user.name}</div>;
        }
        """,
        "src/Panel.tsx",
    )
    assert (tsx.language, tsx.template.display, tsx.notes) == (
        "typescript",
        "Panel needs a user",
        [],
    )
    jsx = only("const A = () => { throw new Error('jsx'); return <b/>; };\n", "src/A.jsx")
    assert (jsx.language, jsx.notes) == ("javascript", [])


def test_minified_and_bundled_files_are_skipped_with_a_reason() -> None:
    with pytest.raises(ExtractError, match=r"minified or bundled file \(app\.min\.js\)"):
        sites("throw new Error('x');\n", "dist2/app.min.js")
    one_line = "var a=1;" * 1000 + "throw new Error('x');"
    with pytest.raises(ExtractError, match=r"minified or bundled file \(1 line"):
        extract(one_line, "lib/bundle.js", [one_line])
    normal = "\n".join(f"const v{i} = {i};" for i in range(600)) + "\nthrow new Error('x');\n"
    assert len(extract(normal, "lib/big.js", normal.splitlines())) == 1


def test_registry_knows_the_suffixes_and_test_names() -> None:
    for path, language in [
        ("a.js", "javascript"),
        ("a.mjs", "javascript"),
        ("a.cjs", "javascript"),
        ("a.jsx", "javascript"),
        ("a.ts", "typescript"),
        ("a.tsx", "typescript"),
        ("a.mts", "typescript"),
        ("a.cts", "typescript"),
    ]:
        found = extractor_for(path)
        assert found is not None and found.language == language
    assert (
        is_test_file("util.test.js") and is_test_file("util.spec.ts") and is_test_file("a_test.mjs")
    )
    assert not is_test_file("util.js") and not is_test_file("testing.ts")


def test_a_scan_reads_js_and_skips_tests_minified_and_node_modules(tmp_path: Path) -> None:
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    files = {
        "lib/a.js": "throw new Error('from a');\n",
        "src/b.ts": "export function b(): never { throw new Error('from b'); }\n",
        "lib/a.test.js": "throw new Error('a test');\n",
        "__tests__/c.js": "throw new Error('a jest test');\n",
        "node_modules/dep/index.js": "throw new Error('a dependency');\n",
        "lib/vendor.min.js": "throw new Error('minified');\n",
    }
    for name, code in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(code)
    result = scan_checkout(open_source(str(tmp_path), repo="o/js"), repo="o/js")
    assert sorted(r["errorMessage"] for r, _ in result.items) == ["from a", "from b"]
    assert [reason for path, reason in result.skipped if path == "lib/vendor.min.js"] == [
        "cannot parse: minified or bundled file (vendor.min.js), not a source"
    ]
    evidence = next(e for r, e in result.items if r["filePath"] == "src/b.ts")
    assert evidence["site"]["language"] == "typescript" and evidence["analysis"] == "extractor"


def test_a_rejection_of_an_error_made_elsewhere_is_a_site_like_a_throw() -> None:
    found = sites(
        """\
        function send(cancel, reason, reject) {
          reject(reason);
          reject(cancel ? new CanceledError('canceled') : reason);
          job.then(null, (err) => { try { undo(); } catch (e) { reject(e); } });
          reject(null);
        }
        """
    )
    assert [(s.line, s.error_class, s.template.display) for s in found] == [
        (2, None, "{reason}"),
        (3, "CanceledError", "canceled"),
    ]


def test_http_exceptions_carry_the_status_they_are_given() -> None:
    found = sites(
        """\
        import { HttpException, HttpStatus } from '@nestjs/common';
        export class CatsController {
          findOne(id: string) {
            if (!id) throw new HttpException('id is required', HttpStatus.BAD_REQUEST);
            throw new HttpException({ status: 403, error: 'not yours' }, 403);
          }
          parse() { throw new ParseError('bad line', 404); }
        }
        """,
        "src/cats.controller.ts",
    )
    assert [(s.error_class, s.http_status, s.error_type) for s in found] == [
        ("HttpException", 400, "http"),
        ("HttpException", 403, "http"),
        ("ParseError", None, "exception"),  # a number is a status only for an HTTP class
    ]
    assert found[0].qualified_class == "@nestjs/common.HttpException"


def test_a_file_without_any_idiom_word_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``throw``, ``console``, ``reject(``… in the text: no candidate can be in the tree,
    so the file costs a byte search, not a parse (a third of axios' and express' files)."""
    import errdex.extract.javascript as js

    def no_parse(dialect: str) -> object:
        raise AssertionError(f"parsed a file with no idiom word ({dialect})")

    monkeypatch.setattr(js, "parser", no_parse)
    text = "export const sum = (a, b) => a + b; // errors: none\n"
    assert js.extract(text, "lib/sum.js", text.splitlines()) == []
    monkeypatch.undo()
    text = "export function f(x) { if (!x) throw new TypeError('x is required'); }\n"
    (site,) = js.extract(text, "lib/f.js", text.splitlines())
    assert site.error_class == "TypeError" and site.template.display == "x is required"
