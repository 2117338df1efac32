"""Messages that mark a branch its author held unreachable ("should not have reached
here", "this can't happen"): they state no requirement on the call (blind review stop
36, record 34: "The message states the requirement: 'should not have reached here'" was
judged false). Said as what they are, with the one thing a caller can do: report it with
the input that reached it. Only where errdex knows no condition over a public entry
point's parameters for the branch (``if strict: raise ValueError("should not get here")``
is reached by passing ``strict``: a requirement, not an unreachable branch), and only for
the marker phrases ("should not get here", "this can't happen"), not a requirement that
happens to begin with them ("it should not get a negative value").
"""

from __future__ import annotations

import re

from .gathered import Gathered, class_phrase
from .guards import code
from .param_requirement import param_requirement
from .quoting import quote

__all__ = ["marks_unreachable", "unreachable_solution"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

_MARK = re.compile(
    r"^(?:(?:this|we|it)\s+)?(?:(?:should\s*not|shouldn't|should\s+never)\s+(?:have\s+)?"
    r"(?:(?:get|got(?:ten)?|reach(?:ed)?|come)\s+(?:here|this\s+far)|happen(?:ed)?|be\s+reached)"
    r"|(?:can't|cannot|can\s+not)\s+happen)"
    r"(?=\s*(?:$|[.!:;,(\-]))",  # the phrase ends there: no requirement follows it
    re.IGNORECASE,
)


def marks_unreachable(display: str) -> bool:
    """The message begins by saying its branch should never run."""
    return bool(_MARK.match(" ".join(display.split())))


def unreachable_solution(g: Gathered) -> Remedy | None:
    """For a message that marks an unreachable branch: no requirement to meet."""
    template = g.site.template
    if template.is_opaque or not marks_unreachable(template.display):
        return None
    if param_requirement(g) is not None:
        return None  # a caller reaches the branch by what it passes: a requirement
    owner = str(g.site.record.get("repo") or "") or g.site.module.partition(".")[0]
    return (
        f"The message marks a branch its author expected never to run "
        f"({quote(template.display)}): it states no requirement on the call. Reaching it means the code took a path it was not written for: "
        f"report it to the maintainers of {code(owner)} with the call and input that "
        f"{'led to the warning' if g.site.kind == 'warn' else 'raised'} {class_phrase(g)}.",
        ["site.template"],
    )
