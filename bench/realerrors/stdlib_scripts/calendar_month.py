# ruff: noqa  (misuse on purpose: users write code like this)
import calendar

calendar.monthrange(2024, 13)
