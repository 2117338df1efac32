"""`errdex build`: many packages or repositories catalogued as independent tasks on Ray.

fetch → scan → analyse per package in its own process (:mod:`.task`, :mod:`.worker`),
scheduled on a Ray cluster or in one process (:mod:`.runner`), remembered in a
resumable manifest (:mod:`.manifest`) and merged into one catalogue (:mod:`.merge`).
"""

from __future__ import annotations

from errdex.build.manifest import Manifest
from errdex.build.merge import MergeResult, merge_parts
from errdex.build.runner import Placement, run_tasks
from errdex.build.specs import BuildSpec, SpecError, parse_spec, read_list
from errdex.build.task import TaskOptions, run_package

__all__ = [
    "BuildSpec",
    "Manifest",
    "MergeResult",
    "Placement",
    "SpecError",
    "TaskOptions",
    "merge_parts",
    "parse_spec",
    "read_list",
    "run_package",
    "run_tasks",
]
