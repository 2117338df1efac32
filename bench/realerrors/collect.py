"""Build a real-error benchmark from a library's own test suite (the networkx.jsonl recipe).

    python3 bench/realerrors/collect.py attrs==26.1.0 [--out bench/data] [--workdir /tmp/realerrors]

Makes a virtualenv ``/tmp/realerrors/NAME-VER/venv``, installs the library from PyPI, then
its test requirements; takes the tests from the sdist of that very version (``pip download
--no-binary :all: --no-deps``), copies them beside (not inside) the unpacked source so the
installed package is what they import, and runs them with ``plugin.py``. Every exception
or warning a test expected becomes one line of ``bench/data/NAME-VER.jsonl`` in the format
of ``../shared/bench/networkx.jsonl``, its site the innermost frame inside the library's
installed top-level directories (``frames.pick_site``). ``NAME-VER.env.json`` beside it
names the distributions the library needs at run time (what a user's environment holds),
which ``bench/match_realerrors.py`` catalogues as rivals.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import describe_line, first_raise, is_under, pick_site, test_dirs

ROOT = Path(__file__).resolve().parents[2]
BASE_PLUGIN = ROOT / "src" / "errdex" / "analyze" / "harvest" / "plugin.py"
#: Lines kept per benchmark; a bigger harvest is sampled deterministically by test id.
CAP = 1500
#: What each suite needs beyond pytest (from its tox/nox/requirements files).
TEST_REQUIREMENTS: dict[str, list[str]] = {
    "attrs": ["hypothesis", "cloudpickle"],
    "click": [],
    "marshmallow": ["simplejson"],
    "tomlkit": [],
    "packaging": ["pretend", "hypothesis", "tomli_w"],
    "jsonschema": [],
    "jinja2": ["trio"],
    "scikit-learn": [],
    "pandas": ["hypothesis"],
    "more-itertools": [],
    "pyparsing": ["railroad-diagrams", "jinja2"],
    "python-dateutil": ["freezegun", "hypothesis", "attrs", "pytest-cov"],
    "babel": ["freezegun", "pytz"],
    "werkzeug": [
        "pytest-timeout",
        "pytest-xprocess",
        "cryptography",
        "watchdog",
        "ephemeral-port-reserve",
    ],
    "voluptuous": [],
    "humanize": ["freezegun"],
}
#: Libraries that rewrite the traceback before re-raising (jinja2 drops its parser's and
#: its ``@internalcode`` frames): their suite runs with the plugin's origin trace, and a
#: row's site is the exception's first raise where the printed traceback hides it.
TRACE_ORIGINS = frozenset({"jinja2"})
#: Where the suite lives in the unpacked sdist, and the files beside it that configure pytest.
CONFIG_FILES = ("conftest.py", "pyproject.toml", "setup.cfg", "tox.ini", "pytest.ini")


def _run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, check=True, text=True, **kwargs)


def _venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def _site_packages(python: Path) -> Path:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        text=True,
        capture_output=True,
    )
    return Path(out.stdout.strip())


def _dist_info(python: Path, name: str) -> dict[str, Any]:
    """Top-level directories of ``name`` and, recursively, of what it requires to run."""
    code = r"""
import json, sys, re
from importlib import metadata
def tops(dist):
    found = set()
    for f in dist.files or ():
        parts = f.parts
        if not parts or parts[0].endswith(('.dist-info', '.egg-info')) or parts[0] in ('..', 'bin'):
            continue
        if len(parts) == 1:
            if parts[0].endswith('.py'):
                found.add(parts[0])
        else:
            found.add(parts[0])
    return sorted(t for t in found if t != '__pycache__')
seen, order, todo = set(), [], [sys.argv[1]]
while todo:
    n = re.sub(r'[-_.]+', '-', todo.pop(0)).lower()
    if n in seen:
        continue
    seen.add(n)
    try:
        d = metadata.distribution(n)
    except metadata.PackageNotFoundError:
        continue
    order.append({'name': d.metadata['Name'], 'version': d.version, 'top_level': tops(d)})
    for r in d.requires or ():
        if 'extra ==' in r:
            continue
        todo.append(re.split(r'[\s;<>=!~\[(]', r, maxsplit=1)[0])
print(json.dumps(order))
"""
    out = subprocess.run(
        [str(python), "-c", code, name], check=True, text=True, capture_output=True
    )
    dists: list[dict[str, Any]] = json.loads(out.stdout)
    return {"library": dists[0], "requires": dists[1:]}


def _unpack_sdist(python: Path, spec: str, dest: Path) -> Path:
    """The unpacked source tree of the sdist of ``spec``."""
    dest.mkdir(parents=True, exist_ok=True)
    download = [str(python), "-m", "pip", "download", "-q", "--no-binary", ":all:"]
    _run([*download, "--no-deps", "-d", str(dest), spec])
    archive = next(p for p in dest.iterdir() if p.suffix in (".gz", ".zip", ".bz2"))
    # a private folder per run: a second run of the same library never deletes, or reads
    # half-written, the tree this one unpacks (the old ``unpacked/`` was rmtree'd in place)
    unpacked = Path(tempfile.mkdtemp(prefix="unpacked-", dir=dest))
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            z.extractall(unpacked)
    else:
        with tarfile.open(archive) as t:
            t.extractall(unpacked, filter="data")
    (top,) = list(unpacked.iterdir())
    return top


def _copy_tests(source: Path, run_dir: Path) -> Path:
    """``tests/`` (or ``test/``) and the files configuring pytest, without the package source."""
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    for name in ("tests", "test", "testing"):
        if (source / name).is_dir():
            shutil.copytree(source / name, run_dir / name)
            tests = run_dir / name
            break
    else:
        raise SystemExit(f"no tests/ directory in the sdist at {source}")
    for name in CONFIG_FILES:
        if (source / name).is_file():
            shutil.copy2(source / name, run_dir / name)
    return tests


def _installed_test_dirs(library: dict[str, Any], site_packages: Path) -> list[str]:
    """The test directories inside the library's installed tree (``sklearn/utils/tests``):
    the tests' code, never a raise site."""
    found: list[str] = []
    for top in library["top_level"]:
        if (site_packages / top).is_dir():
            found += test_dirs(str(site_packages / top))
    return [os.path.realpath(d) for d in found]


def _record(
    capture: dict[str, Any],
    library: dict[str, Any],
    site_packages: Path,
    run_dir: Path,
    excluded: list[str] | None = None,
) -> dict[str, Any] | None:
    roots = [str(site_packages / t) for t in library["top_level"]]
    frames = [(str(f[0]), int(f[1]), str(f[2])) for f in capture["frames"]]
    base = str(site_packages)
    excluded = excluded or []
    site = pick_site(frames, roots, base, excluded)
    if site is None:
        return None
    printed = site
    origin = capture.get("origin")
    first = None
    if origin is not None:
        first = first_raise((str(origin[0]), int(origin[1]), str(origin[2])), site, roots, base)
        if isinstance(first, tuple):
            site = first  # the printed traceback hides the true raise (a rewritten one)
    rel, line, function, absolute = site
    described = describe_line(absolute, line)
    innermost = next((f[0] for f in frames if str(f[0]).startswith("/")), "")
    if origin is not None:
        innermost = str(origin[0])  # a template file of the tests printed as a frame is not it
    if innermost.endswith((".pyx", ".pxd", ".pxi")) and not os.path.exists(innermost):
        # compiled Cython (pandas/_libs/...): its traceback names the source relative, the
        # plugin made it absolute against the run directory; no file here, and no Python raise
        described.update(is_python_raise=False, site_kind="cython")
    elif str(innermost).startswith(str(run_dir) + "/") or (
        os.path.isabs(innermost) and is_under(os.path.realpath(innermost), excluded)
    ):
        # raised by the test's own code and passed through the library: not a library site
        described.update(is_python_raise=False, site_kind="from_test_code")
    elif first == "generated_code":
        # raised by generated code with no file (a compiled template): no catalogued site
        described.update(is_python_raise=False, site_kind="generated_code")
    return {
        "package": library["name"],
        "package_version": library["version"],
        "kind": capture["kind"],
        "exc_type": capture["errorClass"],
        "message": capture["message"],
        "message_truncated": capture["truncated"],
        "raise_file": rel,
        "raise_line": line,
        "raise_function": function,
        **described,
        "frame_filename": absolute,
        **({"printed_site": f"{printed[0]}:{printed[1]}"} if site is not printed else {}),
        "source_from": "installed",
        "traceback_text": capture.get("traceback_text", ""),
        "test_id": capture["test"],
        "capture_source": capture["via"],
        "expected": capture["expected"],
        "expected_match": capture["match"],
        "python_version": sys.version.split()[0],
    }


def distinct(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per test, site and message: a property test raising it 100 times is one error."""
    seen: set[tuple[Any, ...]] = set()
    kept = []
    for row in rows:
        key = (
            row["test_id"],
            row["exc_type"],
            row["message"],
            row["raise_file"],
            row["raise_line"],
        )
        if key not in seen:
            seen.add(key)
            kept.append(row)
    return kept


def per_test_site(rows: list[dict[str, Any]], most: int) -> list[dict[str, Any]]:
    """At most ``most`` rows per test and site (0: all), the first ones: a test that loops
    over a thousand values (``for x in ...: with pytest.raises(...)``) raising each at one
    site is one behaviour tested, not a thousand errors, and would outweigh the suite."""
    if most <= 0:
        return rows
    seen: dict[tuple[Any, ...], int] = {}
    kept = []
    for row in rows:
        key = (row["test_id"], row["raise_file"], row["raise_line"])
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= most:
            kept.append(row)
    return kept


def _sample(rows: list[dict[str, Any]], cap: int) -> list[dict[str, Any]]:
    """At most ``cap`` rows, chosen by a hash of test and site, in their original order."""
    if len(rows) <= cap:
        return rows

    def key(item: tuple[int, dict[str, Any]]) -> bytes:
        i, row = item
        text = f"{row['test_id']}|{row['raise_file']}:{row['raise_line']}|{i}"
        return hashlib.sha256(text.encode()).digest()

    kept = sorted(sorted(enumerate(rows), key=key)[:cap], key=lambda item: item[0])
    return [row for _, row in kept]


def _run_suite(
    spec: str,
    work: Path,
    python: Path,
    site_packages: Path,
    timeout: int,
    pyargs: list[str] | None = None,
) -> None:
    """Install the test requirements, unpack the sdist's tests and run them with the plugin.

    With ``pyargs`` (test packages installed inside the library, ``sklearn.utils.tests``)
    those run instead, from an empty directory (``pytest --pyargs``), and no sdist is needed.
    """
    name = spec.split("==")[0]
    venv = work / "venv"
    run_dir = work / "run"
    raw = work / "captures.jsonl"
    _run([str(python), "-m", "pip", "install", "-q", "pytest", *TEST_REQUIREMENTS.get(name, [])])
    shutil.copy2(BASE_PLUGIN, site_packages / "errdex_harvest_base.py")
    shutil.copy2(Path(__file__).with_name("plugin.py"), site_packages / "realerrors_plugin.py")
    if pyargs:
        if run_dir.exists():
            shutil.rmtree(run_dir)
        run_dir.mkdir(parents=True)
        targets = ["--pyargs", *pyargs]
    else:
        source = _unpack_sdist(python, spec, work / "sdist")
        targets = [_copy_tests(source, run_dir).name]
    raw.unlink(missing_ok=True)
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(work),
        "ERRDEX_HARVEST_OUT": str(raw),
        "REALERRORS_ORIGINS": "1" if name.lower() in TRACE_ORIGINS else "",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    cmd = [str(python), "-m", "pytest", "-q", "--continue-on-collection-errors"]
    cmd += ["-p", "realerrors_plugin", "-p", "no:cacheprovider"]
    print("+", " ".join([*cmd, *targets]), flush=True)
    try:
        subprocess.run(
            [*cmd, *targets], cwd=run_dir, env=env, timeout=timeout, stdout=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        print(f"{spec}: suite stopped after {timeout}s; keeping what was captured")


def collect(
    spec: str,
    out_dir: Path,
    workdir: Path,
    timeout: int,
    reuse: bool = False,
    pyargs: list[str] | None = None,
    cap: int = CAP,
    per_site: int = 0,
) -> Path:
    name, version = spec.split("==")
    work = workdir / f"{name}-{version}"
    venv = work / "venv"
    python = _venv_python(venv)
    raw = work / "captures.jsonl"
    run_dir = work / "run"
    reuse_run = reuse and raw.exists()
    if not python.exists():
        _run([sys.executable, "-m", "venv", str(venv)])
    if not reuse_run:
        _run([str(python), "-m", "pip", "install", "-q", spec])
    env_info = _dist_info(python, name)  # before test requirements: what users have
    site_packages = _site_packages(python)
    if not reuse_run:
        _run_suite(spec, work, python, site_packages, timeout, pyargs)
    excluded = _installed_test_dirs(env_info["library"], site_packages) if pyargs else []
    rows: list[dict[str, Any]] = []
    skipped = captured = 0
    summary: dict[str, Any] = {}
    for line in raw.read_text(encoding="utf-8").splitlines():
        capture = json.loads(line)
        if capture.get("type") == "summary":
            summary = capture
            continue
        captured += 1
        row = _record(capture, env_info["library"], site_packages, run_dir, excluded)
        if row is None:
            skipped += 1
        else:
            rows.append(row)
    rows = per_test_site(distinct(rows), per_site)
    total = len(rows)
    rows = _sample(rows, cap)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{name}-{version}.jsonl"
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=True) + "\n")
    meta = {
        **env_info,
        "venv": str(venv),
        "site_packages": str(site_packages),
        "captured": captured,
        "outside_library": skipped,
        "distinct": total,
        "kept": len(rows),
        **({"per_test_site": per_site} if per_site else {}),
        "suite": {k: summary.get(k) for k in ("exitstatus", "collected", "counts", "pytest")},
        **({"pyargs": pyargs} if pyargs else {}),
    }
    out.with_suffix(".env.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(
        f"{spec}: {captured} captures, {skipped} outside the library, "
        f"{total} distinct, wrote {len(rows)}"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="+", help="NAME==VERSION")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/realerrors"))
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument(
        "--reuse", action="store_true", help="rebuild the data from an earlier run's captures"
    )
    parser.add_argument(
        "--pyargs",
        nargs="+",
        metavar="PACKAGE",
        help="run these installed test packages (pytest --pyargs) instead of the sdist's tests/",
    )
    parser.add_argument("--cap", type=int, default=CAP, help="rows kept per library")
    parser.add_argument(
        "--per-test-site",
        type=int,
        default=0,
        metavar="K",
        help="rows kept per test and raise site (0: all; a loop in one test is one behaviour)",
    )
    args = parser.parse_args()
    for spec in args.specs:
        collect(
            spec,
            args.out,
            args.workdir,
            args.timeout,
            args.reuse,
            args.pyargs,
            args.cap,
            args.per_test_site,
        )


if __name__ == "__main__":
    main()
