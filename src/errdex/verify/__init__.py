"""``errdex verify``: run the code a record shows, keep what does what it claims.

Modules: :mod:`.sandbox` (one subprocess per snippet, limits, no network),
:mod:`._child` (the wrapper that runs in the target interpreter), :mod:`.from_tests`
(reproducers cut out of the repository's tests), :mod:`.sites` and :mod:`.checks`
(what a run must show), :mod:`.handlers` (the code fields run against a reproducer),
:mod:`.cache`, :mod:`.runner` and :mod:`.commands`.
"""
