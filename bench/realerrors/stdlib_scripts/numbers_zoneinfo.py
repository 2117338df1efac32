# ruff: noqa  (misuse on purpose: users write code like this)
import zoneinfo

zoneinfo.ZoneInfo("Mars/Olympus")
