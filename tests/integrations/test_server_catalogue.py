"""``ERRDEX_DB=postgresql://…``: the excepthook, the catalogue lookup and the pytest
plugin read a PostgreSQL catalogue (a real server), its match index saved in errdex's
cache since a server has no folder beside it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.integrations.catalogue import default_db, is_server_url
from errdex.match.server_index import server_index_path
from tests.integrations.acme import GEAR_LINE, WIDGETS
from tests.integrations.acme import REPO as ACME_REPO
from tests.integrations.acme import SHA as ACME_SHA
from tests.store.pg_server import PostgresServer

from .conftest import REPO, SHA, env_for
from .test_hook import MAIN, RESHAPE, block_after, run, script, with_and_without

pytest_plugins = ["pytester"]

PLUGIN = ("-p", "no:errdex", "-p", "errdex.integrations.pytest_plugin")


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-c", "from errdex.cli import main; main()", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)


def test_the_setting_names_a_server_as_its_url(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "postgresql://me:secret@db.example/errdex"
    monkeypatch.setenv("ERRDEX_DB", url)
    assert default_db() == url  # the string itself: a Path would fold its "//"
    assert is_server_url(url) and is_server_url("postgres://h/x")
    monkeypatch.setenv("ERRDEX_DB", "/data/errdex.db")
    assert default_db() == Path("/data/errdex.db")
    assert not is_server_url(Path("/data/postgresql:/x"))


def test_the_lookup_imports_no_store(tmp_path: Path) -> None:
    code = (
        "import sys; from errdex.integrations.catalogue import default_db;"
        "print(default_db(), [m for m in sys.modules if m.startswith(('errdex.store', 'errdex.source'))])"
    )
    env = env_for(tmp_path, ERRDEX_DB="postgresql://u@/x?host=/nowhere")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout == "postgresql://u@/x?host=/nowhere []\n", done.stderr


def test_a_server_index_is_keyed_by_its_url_without_the_password() -> None:
    one = server_index_path("postgresql://me:secret@db.example/errdex")
    assert one == server_index_path("postgresql://me:other@db.example/errdex")
    assert one == server_index_path("postgresql://me@db.example/errdex")
    assert one != server_index_path("postgresql://me@db.example/other")
    assert "secret" not in str(one) and one.parent.name == "matchindex"


@pytest.fixture(scope="module")
def pg_shapes(shapes: Path, postgres_server: PostgresServer) -> str:
    """A PostgreSQL catalogue of tinyshapes (scanned with the CLI); its URL."""
    url = postgres_server.new_database()
    done = cli(env_for(shapes), "scan", str(shapes), "--repo", REPO, "--sha", SHA, "--db", url)
    assert done.returncode == 0, done.stderr
    return url


def test_the_hook_answers_from_a_server(tmp_path: Path, shapes: Path, pg_shapes: str) -> None:
    env = env_for(shapes, ERRDEX_DB=pg_shapes, XDG_CACHE_HOME=str(tmp_path / "cache"))
    hooked, plain = with_and_without(tmp_path, MAIN, env)
    assert hooked.returncode == plain.returncode == 1
    shown = f"'{pg_shapes}'"
    assert hooked.stderr == plain.stderr + (
        f"errdex: {shown} is not indexed yet; run `errdex match --db {shown} x` once to index it\n"
    )
    done = cli(env, "match", "--db", pg_shapes, "x")
    assert done.returncode in (0, 1, 3), done.stderr  # 3: "x" holds no error
    saved = server_index_path(pg_shapes).relative_to(Path(os.environ["XDG_CACHE_HOME"]))
    assert (tmp_path / "cache" / saved / "meta.json").is_file()
    hooked = run(script(tmp_path, MAIN, name="hooked.py"), env, tmp_path)
    assert f"ShapeError raised at {RESHAPE}" in block_after(hooked.stderr, plain.stderr)
    hooked = run(script(tmp_path, HEAVY + MAIN.replace('print("before")', "")), env, tmp_path)
    assert f"ShapeError raised at {RESHAPE}" in hooked.stderr
    assert hooked.stdout == "heavy: []\n"


#: Printed at exit, after the hook answered: what it loaded that it need not (not
#: shutil, as for a file catalogue: psycopg itself imports it).
HEAVY = """\
    import atexit, sys
    def _after():
        loaded = ("rapidfuzz", "errdex.source")
        print("heavy:", [m for m in loaded if m in sys.modules])
    atexit.register(_after)
"""


def test_the_pytest_plugin_reads_a_server(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, postgres_server: PostgresServer
) -> None:
    src = pytester.path / "acme" / "src"
    (src / "widgets").mkdir(parents=True)
    (src / "widgets" / "__init__.py").write_text(WIDGETS, encoding="utf-8")
    url = postgres_server.new_database()
    env = env_for(pytester.path)
    done = cli(env, "scan", str(src), "--repo", ACME_REPO, "--sha", ACME_SHA, "--db", url)
    assert done.returncode == 0, done.stderr
    path = [str(src), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    monkeypatch.setenv("ERRDEX_DB", url)
    pytester.makepyfile("import widgets\n\ndef test_gear():\n    widgets.gear(1)\n")
    for given in ((), ("--errdex-db", url)):  # the setting, or the option
        result = pytester.runpytest_subprocess(*PLUGIN, "--errdex", *given)
        result.assert_outcomes(failed=1)
        text = result.stdout.str()
        assert f"errdex: catalogue {url}" in text
        assert f"widgets/__init__.py:{GEAR_LINE}" in text.split("- errdex -", 1)[1]
        monkeypatch.setenv("ERRDEX_DB", "/nowhere.db")  # the option wins over it
