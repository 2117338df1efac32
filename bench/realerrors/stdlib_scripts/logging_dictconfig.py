# ruff: noqa  (misuse on purpose: users write code like this)
import logging.config

logging.config.dictConfig({"version": 2})
