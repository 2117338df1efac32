"""``errdex verify``: run the code a record shows, keep what does what it claims.

Modules: :mod:`.sandbox` (one subprocess per snippet: limits, no network, scratch folder)
and :mod:`.forkserver` (each snippet forked from a server that imported the package
once), :mod:`._child` (the wrapper that runs in the target interpreter and writes the
JSON result), :mod:`.locate` (where the repository is installed, its tests),
:mod:`.from_tests` with :mod:`._test_context`, :mod:`._test_cases` and :mod:`._ast_names`
(reproducers cut out of the tests), :mod:`.accelerators` (the Python code a C accelerator
stands in for, reached with it blocked), :mod:`.sites` and :mod:`.checks` (what a run must show),
:mod:`.handlers` (the code fields as programs run against a reproducer),
:mod:`.executor` and :mod:`.cache` (parallel runs, cached by content hash),
:mod:`.runner` and :mod:`.outcome` (one repository's decisions, written back), and
:mod:`.commands` (the click verb).
"""
