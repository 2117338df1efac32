# ruff: noqa  (misuse on purpose: users write code like this)
import calendar

calendar.setfirstweekday(9)
