"""commonSituations by kind, main against a branch (issue 10, "situations that name a situation").

    PYTHONPATH=$PWD/src .venv/bin/python bench/situation_kinds.py BASE.jsonl BRANCH.jsonl
        [--sample N --seed S]

Reads two exports of the same catalogue (``errdex export --jsonl``), one built with
main's code and one with the branch's, and prints per kind the records of each side and
the ratio: the old filler about what errdex read ("errdex linked none of the N test
files…", "errdex read none of the repository's tests…"), run time and linked tests, and
each kind :mod:`errdex.analyze.situation_words` writes, by how its text reads; then
triggerScenarios by the family of its first sentence ("when the arguments passed to…",
"after `X` was caught", "whenever … reaches line N"…).
``--sample N`` prints N records (by ``--seed``) whose commonSituations the branch changed,
old and new, with file and line, to be read against the source.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

Envelope = dict[str, Any]


def kind(text: str) -> str:
    """The kind of one commonSituations, by how it reads."""
    if text.startswith(("errdex linked none", "errdex read none")):
        return "filler (what errdex read)"
    if text.startswith("Seen at run time"):
        return "observed"
    if text.startswith(("The repository's own tests", "The test `")):
        return "tests"
    tail = (
        " (module import)"
        if "is imported." in text
        else " (private)"
        if "no public call" in text
        else " (caught)"
        if "Only code that calls" in text
        else ""
    )
    if "Its message describes it" in text:
        head = "argument" if text.startswith("It comes from a call of") else "docstring"
        if text.startswith(("It comes from calling", "It comes from an override")):
            head = "abstract"
        return f"{head} + message"
    if "; the docstring of " in text:
        return "entry + docstring (raised if)"
    if " whose `" in text and "` overrides `" in text:
        return "hook (override the library calls)"
    if "in the situation its message describes" in text:
        return "message" + tail
    if "breaks what its message requires" in text:
        return "requirement" + tail
    if "under the conditions its trigger states" in text:
        return "entry"
    if text.startswith("It comes from reading `x."):
        return "entry (property read)"
    if "cannot be imported: this interpreter imports" in text:
        return "public call, where no C twin"
    if text.startswith(
        ("It comes from `s.encode(", "It comes from `b.decode(", "It comes from `codecs.")
    ):
        return "entry (codec by name)"
    if text.startswith("It comes from ") and ("(`x` a " in text or "(`x` an " in text):
        return "entry (operator)"
    if text.startswith("It comes from a call of"):
        if "whose arguments make" in text:
            return "argument (code)"
        if " that passes " in text:
            return "argument (words)"
        return "entry (call only)"
    if text.startswith("It comes from ") and "Python runs" in text:
        return "special method (operator)"
    if text.startswith("The docstring of"):
        return "docstring"
    if text.startswith(("It comes from calling", "It comes from an override")):
        return "abstract"
    if text.startswith("Only code that calls"):
        return "caught"
    if text.startswith("It is raised while the module"):
        return "module import"
    if text.startswith("It is raised inside"):
        return "private (location restated)"
    if text.startswith("Which public call leads here is not known"):
        return "private (way in not known)"
    return "other"


_VERB = "(?:Triggered|Reached)"  # a warning's trigger says "Reached"
#: triggerScenarios phrase families, by the words of its first sentence (issue 10).
_TRIGGER_FAMILIES = (
    ("arguments passed (only when)", re.compile(rf"^{_VERB} only when the arguments passed to")),
    ("arguments passed", re.compile(rf"^{_VERB}[^.]*? when the arguments passed to")),
    ("after X was caught", re.compile(rf"^{_VERB}[^.]*after `[^`]+` was caught")),
    ("after statement raised", re.compile(rf"^{_VERB}[^.]*after `[^`]+` raised")),
    ("whenever reaches line", re.compile(rf"^{_VERB} whenever")),
    ("on every call", re.compile(rf"^{_VERB} on every call")),
    ("when imported", re.compile(rf"^{_VERB} when `[^`]+` is imported")),
    ("private conditions", re.compile(rf"^{_VERB} inside .* conditions over private names")),
    ("docstring case", re.compile(rf"^{_VERB} in the case the docstring")),
    ("when condition", re.compile(rf"^{_VERB} when")),
    ("no condition said", re.compile(r"^(?:Public callers|Tests that)")),
)


def trigger_family(text: str) -> str:
    """The family of one triggerScenarios, by its first sentence."""
    for name, pattern in _TRIGGER_FAMILIES:
        if pattern.search(text):
            return name + (" + others" if "(with other conditions on the way)" in text else "")
    return "other"


def _read(path: str) -> dict[str, Envelope]:
    with open(path, encoding="utf-8") as handle:
        rows = (json.loads(line) for line in handle if line.strip())
        return {row["record"]["id"]: row for row in rows}


def _table(
    field: str,
    of: Callable[[str], str],
    base: dict[str, Envelope],
    branch: dict[str, Envelope],
) -> None:
    """Records per phrase family of ``field``, main beside the branch, and how many
    records the branch changed in that field."""
    before = Counter(of(e["record"][field]) for e in base.values())
    after = Counter(of(e["record"][field]) for e in branch.values())
    print(f"\n{field:32} {'main':>7} {'branch':>7} {'ratio':>7}")
    for name in sorted(set(before) | set(after), key=lambda k: -(after[k] + before[k])):
        ratio = f"{after[name] / before[name]:.2f}" if before[name] else "-"
        print(f"{name:32} {before[name]:7,} {after[name]:7,} {ratio:>7}")
    moved = sum(base[i]["record"][field] != branch[i]["record"][field] for i in branch if i in base)
    print(f"changed: {moved:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("branch")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    base, branch = _read(args.base), _read(args.branch)
    print(f"records: main {len(base):,}, branch {len(branch):,}")
    for field, of in (("commonSituations", kind), ("triggerScenarios", trigger_family)):
        _table(field, of, base, branch)
    changed = [
        i
        for i in branch
        if i in base
        and base[i]["record"]["commonSituations"] != branch[i]["record"]["commonSituations"]
    ]
    print(f"commonSituations changed: {len(changed):,}")
    for i in random.Random(args.seed).sample(changed, min(args.sample, len(changed))):
        record = branch[i]["record"]
        print(f"\n{record['filePath']}:{record['lineNumber']} {record['errorClass']}")
        print(f"  main:   {base[i]['record']['commonSituations']}")
        print(f"  branch: {record['commonSituations']}")


if __name__ == "__main__":
    main()
