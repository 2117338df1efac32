# ruff: noqa  (misuse on purpose: users write code like this)
import warnings

warnings.simplefilter("loud")
