"""``errdex harvest``: runtime messages from a repository's own tests, onto its records.

``plugin`` runs inside the target's pytest (standard library and pytest only),
``collect`` runs that pytest and reads what it captured, ``attach`` places each
capture on its record, ``commands`` is the click verb. Nothing is imported here, so
loading the plugin into a test process pulls in no more than it needs.
"""
