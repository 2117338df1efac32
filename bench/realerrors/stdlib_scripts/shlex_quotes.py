# ruff: noqa  (misuse on purpose: users write code like this)
import shlex

shlex.split('echo "unterminated')
