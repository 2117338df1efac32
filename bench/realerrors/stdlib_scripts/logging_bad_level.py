# ruff: noqa  (misuse on purpose: users write code like this)
import logging

logging.getLogger().setLevel("LOUD")
