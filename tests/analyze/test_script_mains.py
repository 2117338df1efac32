"""A program's command line (it reads ``sys.argv``, parses it or ends the process) is
no call for code fields (blind review 2026-12-04, record 27: ``try: ftplib.test()
except NetrcParseError`` never runs its handler: ``test()`` exits first)."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

from errdex.analyze.walk import module_facts
from errdex.scan import scan_checkout
from errdex.source import open_source

MODULE = """\
import sys as _sys
import getopt
import argparse


class Error(Exception):
    pass


def load(name):
    if not name:
        raise Error("no account file name was given")
    return name


def main():
    if len(_sys.argv) < 2:
        print("usage: tool NAME")
        _sys.exit(0)
    return load(_sys.argv[1])


def options(args):
    return getopt.getopt(args, "v")


def cli(args=None):
    parser = argparse.ArgumentParser()
    return parser.parse_args(args)


def leave():
    raise SystemExit(2)


def read_files(files=None):
    if files is None:
        files = _sys.argv[1:]
    return files


def run_script(path, args):
    saved = _sys.argv.copy()
    try:
        _sys.argv[1:] = args
        return path
    finally:
        _sys.argv = saved


def library(name):
    return load(name)


class Parser:
    def parse_args(self, args):
        return self.parse_known_args(args)

    def parse_known_args(self, args):
        return args
"""


def test_the_walk_tells_what_makes_a_function_a_command_line() -> None:
    facts = module_facts(MODULE, "tool.py", "tool.py", "tool", is_test=False)
    assert facts is not None
    found = {f.qualname: f.command_line for f in facts.functions}
    assert found == {
        "tool.load": None,
        "tool.main": "reads sys.argv",
        "tool.options": "parses the command line",
        "tool.cli": "parses the command line",
        "tool.leave": "calls SystemExit",
        "tool.read_files": None,  # the command line is the default of an argument
        "tool.run_script": None,  # it runs another program with the arguments it sets
        "tool.library": None,
        "tool.Parser.parse_args": None,  # the parser's own method is the library
        "tool.Parser.parse_known_args": None,
    }


def test_a_handler_is_not_written_around_a_command_line(tmp_path: Path) -> None:
    """``main()`` is the only public caller of the private ``_load``: no handler calls it."""
    (tmp_path / "tool").mkdir()
    private = MODULE.replace("load(", "_load(").replace("def library", "def _library")
    (tmp_path / "tool" / "__init__.py").write_text(private)
    result = scan_checkout(open_source(str(tmp_path), repo="o/tool"), repo="o/tool")
    ((record, evidence),) = [
        (r, e) for r, e in result.items if r["errorMessage"] == "no account file name was given"
    ]
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["tool.main"]
    scaffold = evidence.get("provenance", {}).get("tryCatchPattern", {}).get("scaffold")
    assert record["tryCatchPattern"] is None and scaffold is None, record["tryCatchPattern"]


def test_ftplib_test_is_not_the_call_around_netrc_errors(tmp_path: Path) -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in ("ftplib.py", "netrc.py"):
        shutil.copy(stdlib / name, tmp_path / name)
    result = scan_checkout(open_source(str(tmp_path), repo="o/ftp"), repo="o/ftp")
    netrc_items = [(r, e) for r, e in result.items if r["errorClass"] == "NetrcParseError"]
    assert netrc_items
    assert any(
        e["qualname"] == "ftplib.test" for _, ev in netrc_items for e in ev.get("entryPoints", [])
    )
    for record, evidence in netrc_items:
        scaffold = evidence.get("provenance", {}).get("tryCatchPattern", {}).get("scaffold")
        for code in (record["tryCatchPattern"], scaffold):
            assert code is None or "import test" not in code, code


#: ``imaplib``'s test block: ``run`` exists only when the file runs as a program.
_SCRIPT = """\
import getopt, sys

class Error(Exception):
    pass

def check(typ, dat):
    if typ == 'NO':
        raise Error(dat)

if __name__ == '__main__':
    optlist, args = getopt.getopt(sys.argv[1:], 'd:s:')

    def run(cmd, args):
        typ, dat = cmd(*args)
        check(typ, dat)
        if typ == 'BAD': raise dat[0]
        return dat

    class Client:
        def login(self, user):
            check(user, None)

    run(print, args)
"""


def test_what_the_main_block_defines_is_no_way_in(tmp_path: Path) -> None:
    # ``imaplib.run`` was listed as the public entry point of its own raise; ``check``,
    # defined outside the block, stays one
    facts = module_facts(_SCRIPT, "mail.py", "mail.py", "mail", is_test=False)
    assert facts is not None
    assert {f.qualname: f.script_only for f in facts.functions} == {
        "mail.check": False,
        "mail.run": True,
        "mail.Client.login": True,
    }
    (tmp_path / "mail.py").write_text(_SCRIPT)
    result = scan_checkout(open_source(str(tmp_path), repo="o/mail"), repo="o/mail")
    entries = {
        r["lineNumber"]: [e["qualname"] for e in ev["entryPoints"]] for r, ev in result.items
    }
    assert entries == {8: ["mail.check"], 16: []}
