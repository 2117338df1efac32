"""Provoked errors of three families: chained errors, messages with newlines, warnings.

    PYTHONPATH=$PWD/src .venv/bin/python bench/chained_and_warnings.py --baseline ../main/src

Each case runs real code of the standard library or of PyPI packages, installed into a
virtualenv under /tmp (``--venv``, made once with the pinned versions of :data:`PACKAGES`),
and keeps what it prints exactly: a chained traceback (``raise … from``, "During
handling…", ``from None``), pytest's report of it (``--tb=long/short/native``), a
message that spans lines or ends with a newline, or a warning whose ``stacklevel``
prints its caller's line. The true site is the line of the case's ``needle`` in the
catalogued file (found once, and it must be unique there).

The catalogue is what a user of those packages has: the running standard library and the
packages' installed files, scanned once (cached in ``--cache``). Each errdex, the one on
``sys.path`` and the ``--baseline`` source tree, ranks the same pastes in its own process:
the full paste, and ``Class: message`` of its last error. Printed per family and overall:
paste top-1, message top-1, the true site inside the returned group (message), and wrong
first answers at confidence >= 0.9, baseline beside errdex.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import subprocess
import sys
import sysconfig
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

#: Pinned so that the lines do not move under the cases.
PACKAGES = (
    "packaging==26.4",
    "requests==2.34.2",
    "urllib3==2.8.0",
    "python-dateutil==4.0.0",
    "PyYAML==6.0.4",
    "click==8.5.1",
    "pytest==9.2.0",
)
#: The installed top-level packages catalogued beside the standard library.
TOP_LEVEL = ("packaging", "requests", "urllib3", "dateutil", "yaml", "click")


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    family: str  # chained, newline, warning
    code: str  # a script (a file, run with -W always), or a test body for pytest
    file: str  # the true site's file as catalogued (Lib/… for the standard library)
    #: A string the true site's line holds in that file; "" for an exception: its site is
    #: the innermost frame of the final traceback the case prints as a script
    needle: str
    pytest: str = ""  # --tb style: run as a pytest test
    nth: int | None = None  # the needle's nth line (from 0) where it is on several


_W = "import warnings; warnings.simplefilter('always')\n"
_REQ = "from packaging.requirements import Requirement\nRequirement('foo[')"
_JSON = "import requests\nr = requests.models.Response()\nr._content = b'x'\nr.json()"
_META = "import importlib.metadata as m\nm.version('no-such-dist-c32')"
_MOCK = "from unittest import mock\nmock.Mock().assert_called_with(1)"
_ICAL = (
    "import io\nfrom dateutil import tz\ntz.tzical(io.StringIO('BEGIN:VTIMEZONE\\nTZID:X\\n"
    "BEGIN:STANDARD\\nDTSTART:19671029T020000\\nTZOFFSETFROM;X=1:-0400\\nTZOFFSETTO:-0500"
    "\\nEND:STANDARD\\nEND:VTIMEZONE\\n'))"
)
CASES = (
    # -- chained: the final error is the last printed; "" : the site is its innermost frame
    Case("requirement", "chained", _REQ, "packaging/requirements.py", ""),
    Case("requirement-long", "chained", _REQ, "packaging/requirements.py", "", "long"),
    Case("requirement-short", "chained", _REQ, "packaging/requirements.py", "", "short"),
    Case("requirement-native", "chained", _REQ, "packaging/requirements.py", "", "native"),
    Case("requests-json", "chained", _JSON, "requests/models.py", ""),
    Case("requests-json-long", "chained", _JSON, "requests/models.py", "", "long"),
    Case("metadata", "chained", _META, "Lib/importlib/metadata/__init__.py", ""),
    Case("metadata-short", "chained", _META, "Lib/importlib/metadata/__init__.py", "", "short"),
    Case(
        "zoneinfo",
        "chained",
        "import zoneinfo\nzoneinfo.ZoneInfo('Nope/Nowhere')",
        "Lib/zoneinfo/_common.py",
        "",
    ),
    Case(
        "nosection-from-none",
        "chained",
        "import configparser\nconfigparser.ConfigParser().get('nosec', 'x')",
        "Lib/configparser.py",
        "",
    ),
    Case(
        "octet-from-none",
        "chained",
        "import ipaddress\nipaddress.IPv4Address('1.2.3.999')",
        "Lib/ipaddress.py",
        "",
    ),
    Case(
        "json-from-none",
        "chained",
        "import json\njson.loads('{\"a\":}')",
        "Lib/json/decoder.py",
        "",
    ),
    Case(
        "urllib3-url",
        "chained",
        "from urllib3.util import parse_url\nparse_url('http://[::1')",
        "urllib3/util/url.py",
        "",
    ),
    Case(
        "dateutil",
        "chained",
        "from dateutil import parser\nparser.parse('not a date at all')",
        "dateutil/parser/_parser.py",
        "",
    ),
    # -- newlines: messages spanning lines, opening or closing with one -------------------
    Case(
        "section-headers",
        "newline",
        "import configparser\nconfigparser.ConfigParser().read_string('x = 1')",
        "Lib/configparser.py",
        "",
    ),
    Case(
        "flag-strict",
        "newline",
        "import enum\nclass F(enum.Flag, boundary=enum.STRICT):\n    A = 1\nF(4)",
        "Lib/enum.py",
        "",
    ),
    Case("seed-types", "newline", "import random\nrandom.seed([1])", "Lib/random.py", ""),
    Case("mock-not-called", "newline", _MOCK, "Lib/unittest/mock.py", ""),
    Case("mock-not-called-long", "newline", _MOCK, "Lib/unittest/mock.py", "", "long"),
    Case("tzical-parm", "newline", _ICAL, "dateutil/tz/tz.py", ""),
    # -- warnings: the printed frame is where stacklevel points ---------------------------
    Case(
        "randint-float",
        "warning",
        _W + "import random\nrandom.randint(1.0, 3)",
        "Lib/random.py",
        "_warn('non-integer arguments to randrange() have been deprecated '",
        nth=0,
    ),
    Case(
        "safeconfigparser",
        "warning",
        _W + "import configparser\nconfigparser.SafeConfigParser()",
        "Lib/configparser.py",
        '"The SafeConfigParser class has been renamed to ConfigParser "',
    ),
    Case(
        "readfp",
        "warning",
        _W + "import configparser, io\nconfigparser.ConfigParser().readfp(io.StringIO('[a]'))",
        "Lib/configparser.py",
        '"This method will be removed in Python 3.12. "',
    ),
    Case(
        "nested-group",
        "warning",
        _W + "import argparse\nargparse.ArgumentParser().add_argument_group().add_argument_group()",
        "Lib/argparse.py",
        '"Nesting argument groups is deprecated.",',
    ),
    Case(
        "re-template",
        "warning",
        _W + "import re\nre.template('a')",
        "Lib/re/__init__.py",
        '"The re.template() function is deprecated "',
    ),
    Case(
        "click-version",
        "warning",
        _W + "import click\nclick.__version__",
        "click/__init__.py",
        "\"The '__version__' attribute is deprecated and will be removed in\"",
    ),
    Case(
        "click-basecommand",
        "warning",
        _W + "import click\nclick.BaseCommand",
        "click/__init__.py",
        "\"'BaseCommand' is deprecated and will be removed in Click 9.0. Use\"",
    ),
    Case(
        "click-core-basecommand",
        "warning",
        _W + "import click.core\nclick.core.BaseCommand",
        "click/core.py",
        "\"'BaseCommand' is deprecated and will be removed in Click 9.0. Use\"",
    ),
    Case(
        "click-protected-args",
        "warning",
        _W + "import click\nclick.Context(click.Command('x')).protected_args",
        "click/core.py",
        "\"'protected_args' is deprecated and will be removed in Click 9.0.\"",
    ),
    Case(
        "readfp-pytest",
        "warning",
        "import configparser, io\nconfigparser.ConfigParser().readfp(io.StringIO('[a]'))",
        "Lib/configparser.py",
        '"This method will be removed in Python 3.12. "',
        "long",
    ),
)


# -- the virtualenv, the catalogue and the pastes (made once, by the parent) ---------------


def venv_python(venv: Path) -> Path:
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    return python


def site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(
        subprocess.run([str(python), "-c", code], capture_output=True, text=True).stdout.strip()
    )


def catalogue(site: Path, cache: Path) -> list[dict[str, Any]]:
    """The standard library and the packages' installed files, as scanned (cached)."""
    if cache.exists():
        return json.loads(cache.read_text(encoding="utf-8"))
    from errdex.scan import scan_checkout
    from errdex.source.local import open_directory
    from errdex.source.stdlib import stdlib_checkout

    checkout = stdlib_checkout()
    items = list(scan_checkout(checkout, repo="python/cpython").items)
    files = tuple(
        str(p.relative_to(site)) for top in TOP_LEVEL for p in sorted((site / top).rglob("*.py"))
    )
    local = dataclasses.replace(open_directory(site, repo="pypi/env"), files=files)
    items += scan_checkout(local, repo="pypi/env").items
    envelopes = [{"record": r, "evidence": e} for r, e in items]
    cache.write_text(json.dumps(envelopes), encoding="utf-8")
    return envelopes


_FILE_LINE = re.compile(r'^  File "(?P<path>[^"]+)", line (?P<line>\d+)', re.M)


def truth(case: Case, site: Path, python: Path, work: Path) -> tuple[str, int]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    if not case.needle:  # the live traceback's innermost frame, as printed
        printed = paste(dataclasses.replace(case, pytest=""), python, work)
        found = _FILE_LINE.findall(printed)[-1]
        path = Path(found[0])
        rel = (
            "Lib/" + str(path.relative_to(stdlib))
            if path.is_relative_to(stdlib)
            else str(path.relative_to(site))
        )
        if rel != case.file:
            raise SystemExit(f"{case.name}: raised at {rel}:{found[1]}, not in {case.file}")
        return rel, int(found[1])
    path = (
        stdlib / case.file.removeprefix("Lib/")
        if case.file.startswith("Lib/")
        else site / case.file
    )
    text = path.read_text().splitlines()
    lines = [n for n, line in enumerate(text, 1) if case.needle in line]
    if len(lines) != 1 and (case.nth is None or case.nth >= len(lines)):
        raise SystemExit(f"{case.name}: {case.needle!r} is on {len(lines)} lines of {path}")
    line = lines[case.nth or 0]
    while "warn(" not in text[line - 1]:  # a site is the line its call starts on
        line -= 1
    return case.file, line


def paste(case: Case, python: Path, work: Path) -> str:
    """What running the case prints, exactly."""
    if not case.pytest:  # a script file: a warning prints the line it points at under it
        script = work / f"case_{case.name.replace('-', '_')}.py"
        script.write_text(case.code + "\n")
        done = subprocess.run(
            [str(python), "-W", "always", str(script)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.stderr
    test = work / f"test_{case.name.replace('-', '_')}.py"
    test.write_text("def test_case():\n" + textwrap.indent(case.code, "    ") + "\n")
    done = subprocess.run(
        [str(python), "-m", "pytest", "-p", "no:cacheprovider", f"--tb={case.pytest}", str(test)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=work,
    )
    return done.stdout


# -- scoring (each errdex in its own process) ---------------------------------------------


def score(envelopes: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from errdex.match.api import clues_from
    from errdex.match.index import MatchIndex
    from errdex.match.paste import parse_paste
    from errdex.match.rank import rank

    index = MatchIndex.build(envelopes)
    out = []
    for row in rows:
        want = tuple(row["truth"])
        errors = parse_paste(row["paste"])
        last = errors[-1] if errors else None
        message = f"{last.error_class}: {last.message}" if last and last.error_class else ""
        result: dict[str, Any] = {"name": row["name"], "family": row["family"]}
        for mode, text in (("paste", row["paste"]), ("msg", message)):
            ranked = rank(clues_from(parse_paste(text)), index, top=20) if text else []
            sites = [(index.entry(s.index).file_path, index.entry(s.index).line) for s in ranked]
            group = (
                [
                    site
                    for site, s in zip(sites, ranked, strict=True)
                    if s.group_size > 1 and s.group_size == ranked[0].group_size
                ][: ranked[0].group_size]
                if ranked
                else []
            )
            result[f"{mode}_top1"] = bool(sites) and sites[0] == want
            result[f"{mode}_group"] = want in (group or sites[:1])
            result[f"{mode}_wrong90"] = (
                bool(ranked) and ranked[0].confidence >= 0.9 and sites[0] != want
            )
            result[f"{mode}_first"] = (
                f"{sites[0][0]}:{sites[0][1]} {ranked[0].confidence:.2f}" if sites else "-"
            )
        out.append(result)
    return out


COLUMNS = (
    ("paste_top1", "paste top-1"),
    ("msg_top1", "message top-1"),
    ("msg_group", "msg in group"),
    ("paste_wrong90", "paste wrong @≥0.9"),
    ("msg_wrong90", "msg wrong @≥0.9"),
)


def table(mine: list[dict[str, Any]], base: list[dict[str, Any]]) -> None:
    families: dict[str, list[int]] = defaultdict(list)
    for k, row in enumerate(mine):
        families[row["family"]].append(k)
    families["overall"] = list(range(len(mine)))
    print(
        "| family | cases | "
        + " | ".join(f"{label} (baseline → errdex)" for _, label in COLUMNS)
        + " |"
    )
    print("|---|---|" + "---|" * len(COLUMNS))
    for family, ks in families.items():
        cells = [
            f"{sum(base[k][key] for k in ks)} → {sum(mine[k][key] for k in ks)}"
            for key, _ in COLUMNS
        ]
        print(f"| {family} | {len(ks)} | " + " | ".join(cells) + " |")
    print("\ncases whose answer changed or is wrong (baseline → errdex):")
    for b, m in zip(base, mine, strict=True):
        if b != m or not (m["paste_top1"] and m["msg_top1"]):
            print(
                f"  {m['name']}: paste {b['paste_first']} → {m['paste_first']}; msg {b['msg_first']} → {m['msg_first']}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--baseline", type=Path, help="a source tree of errdex to compare (its src/)"
    )
    parser.add_argument("--venv", type=Path, default=Path("/tmp/errdex-chained-venv"))
    parser.add_argument("--cache", type=Path, default=Path("/tmp/errdex-chained-catalogue.json"))
    parser.add_argument("--score", type=Path, help=argparse.SUPPRESS)  # child: rank these rows
    args = parser.parse_args()
    if args.score is not None:
        rows = json.loads(args.score.read_text(encoding="utf-8"))
        json.dump(score(json.loads(args.cache.read_text(encoding="utf-8")), rows), sys.stdout)
        return
    python = venv_python(args.venv)
    site = site_packages(python)
    envelopes = catalogue(site, args.cache)
    work = args.cache.with_suffix(".work")
    work.mkdir(exist_ok=True)
    rows = [
        {
            "name": c.name,
            "family": c.family,
            "truth": truth(c, site, python, work),
            "paste": paste(c, python, work),
        }
        for c in CASES
    ]
    rows_file = work / "rows.json"
    rows_file.write_text(json.dumps(rows), encoding="utf-8")
    print(
        f"{len(rows)} cases; catalogue of {len(envelopes):,} records (the standard library, {', '.join(TOP_LEVEL)})"
    )
    mine = score(envelopes, rows)
    base = mine
    if args.baseline is not None:
        env = {**os.environ, "PYTHONPATH": str(args.baseline)}
        done = subprocess.run(
            [sys.executable, __file__, "--cache", str(args.cache), "--score", str(rows_file)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        base = json.loads(done.stdout)
    table(mine, base)


if __name__ == "__main__":
    main()
