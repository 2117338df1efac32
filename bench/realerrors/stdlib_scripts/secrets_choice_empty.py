# ruff: noqa  (misuse on purpose: users write code like this)
import secrets

secrets.choice([])
