# ruff: noqa  (misuse on purpose: users write code like this)
import locale

locale.setlocale(locale.LC_ALL, "xx_YY.UTF-8")
