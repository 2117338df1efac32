# ruff: noqa  (misuse on purpose: users write code like this)
import netrc

netrc.netrc("/nonexistent/netrc")
