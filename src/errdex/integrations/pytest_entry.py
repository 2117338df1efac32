"""The ``pytest11`` entry point (``errdex``): it loads :mod:`errdex.integrations.pytest_plugin`
under that module's own name, and holds no hooks itself.

pytest registers an entry point's object under the entry point's name, and a ``-p MODULE``
(or a conftest's ``pytest_plugins``) under the module's name; one module registered under
both names is refused ("Plugin already registered under a different name"). So the entry
point is this module, whose ``pytest_plugins`` asks for the plugin by its module name, which
pytest loads once whichever way came first: ``pytest --errdex``, ``pytest -p errdex``,
``pytest -p errdex.integrations.pytest_plugin`` and ``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1
pytest -p errdex`` all work, and ``-p no:errdex`` turns the entry point off.
"""

from __future__ import annotations

pytest_plugins = ["errdex.integrations.pytest_plugin"]
