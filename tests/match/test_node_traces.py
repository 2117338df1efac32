"""Node/V8 stack traces: the forms Node prints, and real errors provoked from axios and
express with ``node -e`` scripts, matched back to their throw sites."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.match.api import answers, errors_in
from errdex.match.traces.node import parse, parse_frame
from errdex.scan import store_scan
from errdex.source import open_source
from errdex.store import SqliteStore
from tests.extract.test_javascript_npm import SHA, npm_packages, scan_package

UNCAUGHT = """\
/app/node_modules/express/lib/application.js:217
    throw new TypeError('app.use() requires a middleware function')
    ^

TypeError: app.use() requires a middleware function
    at Function.use (/app/node_modules/express/lib/application.js:217:11)
    at Object.<anonymous> (/app/server.js:4:5)
    at Module._compile (node:internal/modules/cjs/loader:1358:14)
    at node:internal/main/run_main_module:28:49

Node.js v20.11.1
"""


def test_frames_outermost_first_with_the_crash_line_as_source() -> None:
    (error,) = parse(UNCAUGHT)
    assert (error.error_class, error.message) == (
        "TypeError",
        "app.use() requires a middleware function",
    )
    assert [(f.path, f.line, f.function) for f in error.frames] == [
        ("node:internal/main/run_main_module", 28, None),
        ("node:internal/modules/cjs/loader", 1358, "_compile"),
        ("/app/server.js", 4, "<anonymous>"),
        ("/app/node_modules/express/lib/application.js", 217, "use"),
    ]
    assert (
        error.frames[-1].source == "throw new TypeError('app.use() requires a middleware function')"
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "    at async Axios.request (/app/node_modules/axios/lib/core/Axios.js:45:41)",
            ("/app/node_modules/axios/lib/core/Axios.js", 45, "request"),
        ),
        (
            "    at new AxiosError (file:///app/node_modules/axios/lib/core/AxiosError.js:27:11)",
            ("/app/node_modules/axios/lib/core/AxiosError.js", 27, "AxiosError"),
        ),
        (
            "    at async file:///home/u/my%20app/index.mjs:6:3",
            ("/home/u/my app/index.mjs", 6, None),
        ),
        (
            "    at Axios.<computed> [as get] (/app/node_modules/axios/lib/core/Axios.js:210:17)",
            ("/app/node_modules/axios/lib/core/Axios.js", 210, "<computed>"),
        ),
        ("    at new Promise (<anonymous>)", ("<anonymous>", None, "Promise")),
        ("    at Promise.all (index 0)", ("index 0", None, "all")),
        (
            "    at eval (eval at <anonymous> (/app/x.js:1:1), <anonymous>:3:9)",
            ("<anonymous>", 3, "eval"),
        ),
        ("    at C:\\app\\index.js:3:9", ("C:\\app\\index.js", 3, None)),
        ("    at file:///C:/app/index.mjs:3:9", ("C:/app/index.mjs", 3, None)),
    ],
)
def test_frame_forms(line: str, expected: tuple[str, int | None, str | None]) -> None:
    frame = parse_frame(line)
    assert frame is not None
    assert (frame.path, frame.line, frame.function) == expected


def test_not_frames() -> None:
    for line in ["    at the end of the day", "at x.js:12", '  File "x.py", line 3, in f']:
        assert parse_frame(line) is None


def test_causes_codes_and_internal_headers() -> None:
    text = """\
node:internal/process/promises:391
    triggerUncaughtException(err, true /* fromPromise */);
    ^

Error: could not load config
    at load (/app/lib/config.js:10:11)
    at async main (/app/index.js:3:3) {
  code: 'ERR_CONFIG',
  [cause]: TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string. Received undefined
      at readFileSync (node:fs:448:20)
      at load (/app/lib/config.js:8:5) {
    code: 'ERR_INVALID_ARG_TYPE'
  }
}

Node.js v20.20.2
"""
    cause, error = parse(text)
    assert (cause.error_class, cause.relation, cause.notes) == (
        "TypeError",
        "cause",
        ["code: ERR_INVALID_ARG_TYPE", "code: ERR_INVALID_ARG_TYPE"],
    )
    assert cause.message.startswith('The "path" argument must be of type string.')
    assert [(f.path, f.line) for f in cause.frames] == [("/app/lib/config.js", 8), ("node:fs", 448)]
    assert (error.error_class, error.message, error.relation, error.notes) == (
        "Error",
        "could not load config",
        None,
        ["code: ERR_CONFIG"],
    )
    # the header pointed into Node's own code, not at the innermost frame
    assert all(f.source is None for f in error.frames)


def test_caused_by_multiline_messages_and_subclass_headers() -> None:
    text = """\
MyError [Error]: first line
second line
    at f (/app/a.js:1:7)
Caused by: RangeError: too far
    at g (/app/b.js:2:9)
"""
    cause, error = parse(text)
    assert (cause.error_class, cause.message, cause.relation) == ("RangeError", "too far", "cause")
    assert (error.error_class, error.message) == ("MyError", "first line\nsecond line")


def test_an_error_with_no_message_and_log_lines_around() -> None:
    text = (
        "[12:00:01] server started: port 3000\nError\n    at boom (/app/x.js:3:9)\n[12:00:02] bye\n"
    )
    (error,) = parse(text)
    assert (error.error_class, error.message, error.frames[0].path) == ("Error", "", "/app/x.js")


def test_a_thrown_string_has_only_the_crash_header() -> None:
    text = "/app/x.js:1\nthrow 'plain text';\n^\nplain text\n(Use `node --trace-uncaught ...` to show where the exception was thrown)\n\nNode.js v20.20.2\n"
    (error,) = parse(text)
    assert (error.error_class, error.message) == (None, "plain text")
    assert [(f.path, f.line, f.source) for f in error.frames] == [
        ("/app/x.js", 1, "throw 'plain text';")
    ]


@pytest.mark.parametrize(
    "text",
    [
        'Traceback (most recent call last):\n  File "run.py", line 3, in <module>\n'
        "    js.call()\nJSError: TypeError: x\n    at f (/app/a.js:1:7)\n",
        "thread 'main' panicked at src/main.rs:2:5:\nboom\nstack backtrace:\n"
        "   0: rust_begin_unwind\n             at /rustc/abc/library/std/src/panicking.rs:645:5\n",
        'Exception in thread "main" java.lang.IllegalStateException: bad\n'
        "\tat com.example.App.run(App.java:12)\n\tat com.example.App.main(App.java:5)\n",
        "ValueError: plain python error\n",
        "we met at noon (at the cafe)\n",
    ],
)
def test_other_texts_are_not_node_traces(text: str) -> None:
    assert parse(text) == []


def test_the_match_api_hears_node_first() -> None:
    (error,) = errors_in(UNCAUGHT)
    assert error.error_class == "TypeError" and len(error.frames) == 4


# -- real errors, provoked -----------------------------------------------------------

_SERVE = """
import http from 'node:http';
import axios from 'axios';
const server = http.createServer((req, res) => { req.resume(); res.statusCode = STATUS; res.end('x'.repeat(100)); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/thing`;
try { CALL } finally { server.close(); }
"""
_HANDLER = """
const http = require('http');
const express = require('express');
const app = express();
app.get('/', (req, res) => { try { CODE } catch (err) { console.error(err); process.exitCode = 1; } res.end(); });
const server = app.listen(0, '127.0.0.1', () => {
  http.get(`http://127.0.0.1:${server.address().port}/`, (r) => { r.resume(); r.on('end', () => server.close()); });
});
"""


def _serve(call: str, status: int = 200) -> str:
    return _SERVE.replace("STATUS", str(status)).replace("CALL", call)


def _handler(code: str) -> str:
    return _HANDLER.replace("CODE", code)


#: (package, module kind, script, file of the true site, a text on or just below its line).
#: The true line is the nearest line at or above that text holding ``throw``, ``reject(``,
#: ``done(`` or ``next(``: where the source throws or hands the error on.
PROVOKED: list[tuple[str, str, str, str, str]] = [
    (
        "axios",
        "esm",
        _serve("await axios.get(url);", 404),
        "lib/core/settle.js",
        "Request failed with status code",
    ),
    (
        "axios",
        "esm",
        _serve("await axios.get(url, {timeout: 'soon'});"),
        "lib/adapters/http.js",
        "error trying to parse `config.timeout` to int",
    ),
    (
        "axios",
        "esm",
        "import axios from 'axios'; await axios.get('ftp://example.com/file');",
        "lib/adapters/http.js",
        "'Unsupported protocol '",
    ),
    (
        "axios",
        "esm",
        _serve("await axios.get(url, {maxContentLength: 10});"),
        "lib/adapters/http.js",
        "'maxContentLength size of '",
    ),
    (
        "axios",
        "esm",
        _serve("await axios.post(url, 'x'.repeat(100), {maxBodyLength: 5});"),
        "lib/adapters/http.js",
        "Request body larger than maxBodyLength limit",
    ),
    (
        "axios",
        "esm",
        _serve("await axios.get(url, {paramsSerializer: {encode: 5}});"),
        "lib/helpers/validator.js",
        "'option ' + opt + ' must be '",
    ),
    (
        "axios",
        "esm",
        "import axios from 'axios'; const a = {}; a.self = a; axios.toFormData(a);",
        "lib/helpers/toFormData.js",
        "Circular reference detected in",
    ),
    (
        "axios",
        "esm",
        "import axios from 'axios'; axios.toFormData(42);",
        "lib/helpers/toFormData.js",
        "target must be an object",
    ),
    (
        "axios",
        "esm",
        "import axios from 'axios'; new axios.CancelToken(5);",
        "lib/cancel/CancelToken.js",
        "executor must be a function.",
    ),
    (
        "axios",
        "esm",
        "import axios from 'axios'; axios.getAdapter('carrier-pigeon');",
        "lib/adapters/adapters.js",
        "Unknown adapter",
    ),
    (
        "axios",
        "esm",
        "import axios from 'axios'; new axios.AxiosHeaders().set(' ', 'v');",
        "lib/core/AxiosHeaders.js",
        "header name must be a non-empty string",
    ),
    (
        "axios",
        "cjs",
        "require('axios').get('http://127.0.0.1:1/', {timeout: 'soon'});",
        "lib/adapters/http.js",
        "error trying to parse `config.timeout` to int",
    ),
    (
        "express",
        "cjs",
        "const app = require('express')(); app.use('/x');",
        "lib/application.js",
        "app.use() requires a middleware function",
    ),
    (
        "express",
        "cjs",
        "require('express').Router().use('/x');",
        "lib/router/index.js",
        "'Router.use() requires a middleware function')",
    ),
    (
        "express",
        "cjs",
        "require('express').Router().use('/x', 5);",
        "lib/router/index.js",
        "'Router.use() requires a middleware function but got a '",
    ),
    (
        "express",
        "cjs",
        "const app = require('express')(); app.post('/x', undefined);",
        "lib/router/route.js",
        "throw new Error(msg)",
    ),
    (
        "express",
        "cjs",
        "require('express').Router().route('/x').all(5);",
        "lib/router/route.js",
        "throw new TypeError(msg)",
    ),
    (
        "express",
        "cjs",
        "const app = require('express')(); app.engine('html');",
        "lib/application.js",
        "callback function required",
    ),
    (
        "express",
        "cjs",
        "const app = require('express')(); app.engine('html', (p, o, cb) => cb(null, '')); app.render('missing.html', (err) => { throw err; });",
        "lib/application.js",
        "return done(err);",
    ),
    (
        "express",
        "cjs",
        "const app = require('express')(); app.param('id', 5);",
        "lib/router/index.js",
        "'invalid param() call for '",
    ),
    (
        "express",
        "cjs",
        "const app = require('express')(); app.set('etag', 'sometimes');",
        "lib/utils.js",
        "'unknown value for etag function: '",
    ),
    (
        "express",
        "cjs",
        "const app = require('express')(); app.set('query parser', 'sometimes');",
        "lib/utils.js",
        "'unknown value for query parser function: '",
    ),
    (
        "express",
        "cjs",
        _handler("res.sendFile('notes.txt');"),
        "lib/response.js",
        "path must be absolute or specify root to res.sendFile",
    ),
    (
        "express",
        "cjs",
        _handler("res.cookie('session', 'v', {signed: true});"),
        "lib/response.js",
        'cookieParser("secret") required for signed cookies',
    ),
    (
        "express",
        "cjs",
        _handler("res.set('Content-Type', ['text/plain']);"),
        "lib/response.js",
        "Content-Type cannot be set to an Array",
    ),
    (
        "express",
        "cjs",
        _handler("req.get();"),
        "lib/request.js",
        "name argument is required to req.get",
    ),
]

_HANDS_ON = ("throw", "reject(", "done(", "next(")


def true_line(source: Path, needle: str) -> int:
    """The line that throws or hands on the error whose text is ``needle`` (see PROVOKED)."""
    lines = source.read_text().splitlines()
    (at,) = [n for n, text in enumerate(lines, 1) if needle in text]
    while not any(word in lines[at - 1] for word in _HANDS_ON):
        at -= 1
    return at


def provoke(node_modules: Path, kind: str, script: str) -> str:
    """Run a script as a user would (beside ``node_modules``); what it printed."""
    args = (
        ["node", "--input-type=module", "-e", script] if kind == "esm" else ["node", "-e", script]
    )
    done = subprocess.run(
        args, cwd=node_modules.parent, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode != 0, f"the script raised nothing: {script}"
    return done.stderr + done.stdout


def js_catalogue(node_modules: Path, db: Path) -> Path:
    with SqliteStore(db) as store:
        for name in ("axios", "express"):
            checkout = open_source(str(node_modules / name), repo=f"{name}/{name}", sha=SHA)
            store_scan(
                store,
                checkout,
                f"{name}/{name}",
                scan_package(node_modules, name),
                "2026-12-01T00:00:00.000Z",
            )
    return db


@pytest.fixture(scope="module")
def installed() -> Path:
    return npm_packages()


@pytest.fixture(scope="module")
def catalogue(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield js_catalogue(installed, tmp_path_factory.mktemp("js") / "errdex.db")


@pytest.mark.parametrize(
    ("package", "kind", "script", "path", "needle"),
    PROVOKED,
    ids=[f"{p[0]}-{i}" for i, p in enumerate(PROVOKED)],
)
def test_provoked_errors_match_their_throw_site(
    installed: Path, catalogue: Path, package: str, kind: str, script: str, path: str, needle: str
) -> None:
    text = provoke(installed, kind, script)
    found = answers(text, catalogue)
    assert found, text
    final = found[-1]
    assert final.candidates, f"nothing matched:\n{text}"
    best = final.candidates[0]
    assert (best.repo, best.filePath, best.lineNumber) == (
        f"{package}/{package}",
        path,
        true_line(installed / package / path, needle),
    ), text
    assert best.confidence >= 0.9


def test_the_cli_scans_express_and_matches_a_crash(installed: Path, tmp_path: Path) -> None:
    """``errdex scan`` then ``errdex match -`` as separate processes, as a user runs them."""
    db = tmp_path / "errdex.db"
    scan = subprocess.run(
        [
            sys.executable,
            "-m",
            "errdex",
            "scan",
            str(installed / "express"),
            "--repo",
            "expressjs/express",
            "--sha",
            SHA,
            "--db",
            str(db),
            "--language",
            "javascript",
            "--no-progress",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert scan.returncode == 0, scan.stderr
    text = provoke(installed, "cjs", "const app = require('express')(); app.engine('html');")
    found = subprocess.run(
        [sys.executable, "-m", "errdex", "match", "--db", str(db), "--json", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    best = json.loads(found.stdout)[0]
    want = true_line(installed / "express/lib/application.js", "callback function required")
    assert (best["filePath"], best["lineNumber"]) == ("lib/application.js", want)


def test_a_repl_uncaught_prefix() -> None:
    (error,) = parse("Uncaught TypeError: x is not a function\n    at REPL3:1:1\n")
    assert (error.error_class, error.message, error.frames[0].path) == (
        "TypeError",
        "x is not a function",
        "REPL3",
    )


def test_a_package_root_file_under_node_modules_keys_to_the_package_path() -> None:
    """``node_modules/ms/index.js`` is the ms repository's ``index.js`` (past the package)."""
    from errdex.match.layouts import frame_keys

    assert "index.js" in frame_keys("/app/node_modules/ms/index.js")
    assert "index.js" in frame_keys("C:\\app\\node_modules\\@scope\\pkg\\index.js")
    assert "lib/x.js" in frame_keys("/a/node_modules/.pnpm/p@1.0.0/node_modules/p/lib/x.js")
    assert "index.js" not in frame_keys("/app/src/index.js")  # one part, no layout root


def test_a_root_file_of_a_dependency_is_found_by_its_frame(installed: Path, tmp_path: Path) -> None:
    """ms (a dependency of express) keeps its code in ``index.js`` at the package root."""
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        checkout = open_source(str(installed / "ms"), repo="ms/ms", sha=SHA)
        store_scan(
            store, checkout, "ms/ms", scan_package(installed, "ms"), "2026-12-01T00:00:00.000Z"
        )
    text = provoke(installed, "cjs", "require('ms')({ minutes: 5 });")
    best = answers(text, db)[-1].candidates[0]
    assert (best.filePath, best.lineNumber) == (
        "index.js",
        true_line(installed / "ms/index.js", "throw new Error("),
    )
    assert any("the innermost frame is index.js" in reason for reason in best.reasons)


JEST = """\
 FAIL  src/parse.test.js
  ● parse › rejects bad input

    TypeError: input must be a string

      1 | function parse(input) {
    > 2 |   if (typeof input !== 'string') throw new TypeError('input must be a string');
        |                                        ^
      3 | }

      at parse (src/parse.js:2:40)
      at Object.<anonymous> (src/parse.test.js:4:5)

Test Suites: 1 failed, 1 total
"""

MOCHA = """\
  1) parse
       rejects bad input:
     TypeError: input must be a string
      at parse (src/parse.js:2:40)
      at Context.<anonymous> (test/parse.test.js:4:5)
      at process.processImmediate (node:internal/timers:478:21)
"""


@pytest.mark.parametrize("text", [JEST, MOCHA], ids=["jest", "mocha"])
def test_test_runner_reports(text: str) -> None:
    """Jest prints a code frame between the error and its stack; Mocha indents by two."""
    (error,) = parse(text)
    assert (error.error_class, error.message) == ("TypeError", "input must be a string")
    assert (error.frames[-1].path, error.frames[-1].line) == ("src/parse.js", 2)
