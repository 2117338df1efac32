"""Synthetic catalogues for ``bench/match_speed.py``: real templates, words varied.

The seeds are the templates errdex extracts from real code (the running standard
library and installed packages). A catalogue of N entries holds every seed once as
scanned, then copies of them in which 1–3 words of the literal text are replaced by
words drawn from a vocabulary of the seeds' own words (as often as they occur there)
and generated tokens. Holes are kept, so every copy is as hard to match as its seed.

Everything is generated lazily and deterministically from one random seed, so the
build, the stage profile and the baselines of one size see the very same catalogue.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Seed",
    "Vocabulary",
    "entry_id",
    "envelope",
    "generated_token",
    "hole_value",
    "is_anchored",
    "miss_message",
    "pattern_of",
    "render",
    "rows",
    "runs_of",
    "scan_seeds",
    "seed_of",
]

Envelope = dict[str, Any]
TemplateJson = list[dict[str, str]]

#: Words worth varying: the index anchors on words of three characters or more.
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")


@dataclass(frozen=True, slots=True)
class Seed:
    """One real template and where it was raised."""

    repo: str
    file_path: str
    line: int
    error_class: str | None
    function: str | None
    template: TemplateJson

    def to_json(self) -> dict[str, Any]:
        return {
            "repo": self.repo,
            "filePath": self.file_path,
            "lineNumber": self.line,
            "errorClass": self.error_class,
            "function": self.function,
            "template": self.template,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seed:
        return cls(
            repo=data["repo"],
            file_path=data["filePath"],
            line=int(data["lineNumber"]),
            error_class=data["errorClass"],
            function=data["function"],
            template=data["template"],
        )


# -- seeds from real code --------------------------------------------------------------


def _scan_items(checkout: Any, repo: str, jobs: int) -> tuple[list[Any], str | None]:
    """(record, evidence) pairs of one checkout; file by file if the whole scan raises."""
    from errdex.scan import ScanContext, scan_checkout, scan_file
    from errdex.source import iter_source_files

    try:
        return scan_checkout(checkout, repo=repo, jobs=jobs).items, None
    except Exception as exc:  # one file that crashes the extractor must not lose the package
        context = ScanContext(
            checkout=checkout,
            repo=repo,
            sha=None,
            analyzed_at="",
            path_prefix=checkout.path_prefix,
        )
        items: list[Any] = []
        failed: list[str] = []
        for rel in iter_source_files(checkout).files:
            try:
                items.extend(scan_file(context, rel).items)
            except Exception as file_exc:
                failed.append(f"{rel} ({type(file_exc).__name__}: {file_exc})")
        note = (
            f"{repo}: scan_checkout raised {type(exc).__name__}: {exc}; "
            f"rescanned file by file, skipping {len(failed)} file(s): {', '.join(failed)}"
        )
        return items, note


def seed_of(item: tuple[dict[str, Any], dict[str, Any]]) -> Seed | None:
    """The seed of one scanned ``(record, evidence)``; None for a site without a template."""
    record, evidence = item
    site = evidence.get("site") or {}
    if site.get("template") is None:
        return None
    return Seed(
        repo=record["repo"],
        file_path=record["filePath"],
        line=int(record["lineNumber"]),
        error_class=record["errorClass"],
        function=site.get("function"),
        template=site["template"],
    )


def scan_seeds(packages: Sequence[str], jobs: int = 2) -> tuple[list[Seed], list[str]]:
    """Templates of the running standard library and of installed ``packages``; notes."""
    from errdex.source import open_source
    from errdex.source.stdlib import stdlib_checkout

    sources: list[tuple[Any, str]] = [(stdlib_checkout(), "python/cpython")]
    sources += [(open_source(package=name), name) for name in packages]
    seeds: list[Seed] = []
    notes: list[str] = []
    for checkout, fallback in sources:
        repo = checkout.repo or fallback
        items, note = _scan_items(checkout, repo, jobs)
        if note:
            notes.append(note)
        seeds += [s for s in map(seed_of, items) if s is not None]
        notes.append(f"{repo}: {len(items)} templates")
    return seeds, notes


# -- vocabulary ------------------------------------------------------------------------

_ONSETS = (
    "b", "br", "c", "ch", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "kl", "l",
    "m", "n", "p", "pl", "qu", "r", "s", "sk", "st", "t", "tr", "v", "w", "z",
)  # fmt: skip
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "io", "ou")
_CODAS = ("", "n", "r", "s", "x", "l", "m", "nd", "rt", "st")
_SUFFIXES = ("id", "count", "name", "path", "spec", "key")


def generated_token(k: int) -> str:
    """A pronounceable identifier, one per ``k`` (``drounst``, ``klaix_spec``)."""
    n = k
    syllables: list[str] = []
    for _ in range(2 + k % 2):
        n, a = divmod(n, len(_ONSETS))
        n, b = divmod(n, len(_VOWELS))
        n, c = divmod(n, len(_CODAS))
        syllables.append(_ONSETS[a] + _VOWELS[b] + _CODAS[c])
    word = "".join(syllables)
    if k % 5 == 0:
        word += "_" + _SUFFIXES[(k // 5) % len(_SUFFIXES)]
    return word + (str(n) if n else "")


class Vocabulary:
    """Replacement words: the seeds' words as often as they occur there, and generated tokens."""

    def __init__(self, seeds: Sequence[Seed], generated: int, p_generated: float) -> None:
        self.real: list[str] = [
            word
            for seed in seeds
            for part in seed.template
            if "literal" in part
            for word in WORD.findall(part["literal"])
        ]
        self.generated = generated
        self.p_generated = p_generated if generated else 0.0

    def draw(self, rng: random.Random) -> str:
        if not self.real or rng.random() < self.p_generated:
            return generated_token(rng.randrange(max(1, self.generated)))
        return self.real[rng.randrange(len(self.real))]


# -- the catalogue ---------------------------------------------------------------------

#: (part index, start, end) of each variable word of a seed's literal parts.
_Spots = list[tuple[int, int, int]]


def _spots(template: TemplateJson) -> _Spots:
    return [
        (i, m.start(), m.end())
        for i, part in enumerate(template)
        if "literal" in part
        for m in WORD.finditer(part["literal"])
    ]


def _vary(template: TemplateJson, spots: _Spots, rng: random.Random, word: Any) -> TemplateJson:
    """A copy of ``template`` with 1–3 of its words replaced by ``word(rng)``."""
    if not spots:
        return template
    chosen = rng.sample(spots, min(len(spots), rng.randint(1, 3)))
    chosen.sort(key=lambda spot: (spot[0], -spot[1]))  # right to left within a part
    out = list(template)
    for i, start, end in chosen:
        text = out[i]["literal"]
        new = word(rng)
        if text[start].isupper():
            new = new[:1].upper() + new[1:]
        out[i] = {"literal": text[:start] + new + text[end:]}
    return out


#: One catalogue entry before it becomes an envelope: its seed, template, messagePattern,
#: repo and filePath. Compact, so that a million can be held while the build is timed.
Row = tuple[Seed, TemplateJson, str, str, str]


def pattern_of(template: TemplateJson) -> str:
    """``MessageTemplate.from_json(template).pattern`` for a normalised template, faster."""
    from errdex.template import HOLE_REGEX, KIND_REGEX, escape_literal

    if not template:
        return "^$"
    if any(part.get("optional") for part in template):  # rare: the slow, exact way
        from errdex.template import MessageTemplate

        return MessageTemplate.from_json(template).pattern
    return "".join(
        escape_literal(part["literal"])
        if "literal" in part
        else escape_literal(part.get("prefix", ""))
        + KIND_REGEX.get(part.get("kind", ""), HOLE_REGEX)
        for part in template
    )


def runs_of(template: TemplateJson) -> list[str]:
    """``MessageTemplate.from_json(template).runs()`` for a normalised template, faster."""
    if any(part.get("optional") for part in template):  # rare: the slow, exact way
        from errdex.template import MessageTemplate

        return list(MessageTemplate.from_json(template).runs())
    runs: list[str] = []
    current = ""
    for part in template:
        if "literal" in part:
            current += part["literal"]
        else:
            runs.append(current + part.get("prefix", ""))
            current = ""
    runs.append(current)
    return runs


def is_anchored(template: TemplateJson) -> bool:
    """Whether the message alone can find it: some literal text of three characters or more."""
    return any(len(r.strip()) >= 3 for r in runs_of(template))


def rows(seeds: Sequence[Seed], n: int, vocabulary: Vocabulary, seed: int = 0) -> Iterator[Row]:
    """The ``n`` entries of a catalogue; deterministic in ``seed``.

    Entry ``i`` copies seed ``i % len(seeds)`` (in an order shuffled once); the first
    ``len(seeds)`` entries are the seeds as scanned, then each further round of copies
    is another (synthetic) repository whose files sit under a package of its own.
    """
    rng = random.Random(seed)
    order = list(seeds)
    rng.shuffle(order)
    spots = [_spots(s.template) for s in order]
    count = len(order)
    package = repo = ""
    for i in range(n):
        generation, k = divmod(i, count)
        s = order[k]
        if generation == 0:
            yield s, s.template, pattern_of(s.template), s.repo, s.file_path
            continue
        if k == 0:
            package = f"{generated_token(generation)}{generation}"
            repo = f"synthetic/{package}"
        template = _vary(s.template, spots[k], rng, vocabulary.draw)
        yield s, template, pattern_of(template), repo, f"{package}/{s.file_path}"


def entry_id(i: int) -> str:
    return f"{i:016x}"


def envelope(i: int, row: Row) -> Envelope:
    """The envelope ``MatchIndex.build`` takes, with the record keys the index reads."""
    s, template, pattern, repo, file_path = row
    return {
        "record": {
            "id": entry_id(i),
            "repo": repo,
            "filePath": file_path,
            "lineNumber": s.line,
            "errorClass": s.error_class,
            "messagePattern": pattern,
        },
        "evidence": {"site": {"template": template, "function": s.function}},
    }


# -- queries ---------------------------------------------------------------------------

_TYPES = ("int", "str", "float", "NoneType", "dict", "list", "tuple", "bytes", "Graph", "Path")


def hole_value(rng: random.Random, vocabulary: Vocabulary) -> str:
    """A value as error messages print them: numbers, names, reprs, paths, types."""
    x = rng.random()
    if x < 0.30:
        return str(rng.randrange(10 ** rng.randint(1, 6)))
    if x < 0.50:
        return vocabulary.draw(rng)
    if x < 0.68:
        return repr(vocabulary.draw(rng))
    if x < 0.73:
        return f"{rng.uniform(-1e3, 1e3):.{rng.randint(1, 6)}f}"
    if x < 0.80:
        return f"/home/user/{vocabulary.draw(rng)}/{vocabulary.draw(rng)}_{rng.randrange(100)}.csv"
    if x < 0.88:
        return f"<class '{rng.choice(_TYPES)}'>"
    if x < 0.94:
        return repr([rng.randrange(100) for _ in range(rng.randint(0, 5))])
    return ".".join(vocabulary.draw(rng) for _ in range(rng.randint(2, 4)))


def render(template: TemplateJson, rng: random.Random, vocabulary: Vocabulary) -> str:
    from errdex.template import MessageTemplate

    t = MessageTemplate.from_json(template)
    return t.render([hole_value(rng, vocabulary) for _ in t.holes])


def miss_message(template: TemplateJson | None, rng: random.Random, vocabulary: Vocabulary) -> str:
    """A message no catalogued template should produce.

    From a template: one of its words replaced by a token no template contains (the
    message drifted); without one: an error-like sentence of generated words.
    """
    spots = _spots(template) if template else []
    if template and spots:
        drifted = _vary(template, [rng.choice(spots)], rng, lambda r: f"zx{r.getrandbits(32):08x}")
        return render(drifted, rng, vocabulary)
    words = [generated_token(10**7 + rng.randrange(10**6)) for _ in range(rng.randint(2, 6))]
    words[0] = words[0].capitalize()
    return " ".join(words) + f": {hole_value(rng, vocabulary)}"
