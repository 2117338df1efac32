# ruff: noqa  (misuse on purpose: users write code like this)
import gettext

gettext.translation("nosuchdomain", localedir="/tmp", languages=["fr"])
