# ruff: noqa  (misuse on purpose: users write code like this)
import uuid

uuid.UUID()
