# ruff: noqa  (misuse on purpose: users write code like this)
import getopt

getopt.getopt(["-z"], "ab")
