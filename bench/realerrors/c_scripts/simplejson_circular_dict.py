# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: Circular reference detected
import simplejson

config = {}
config["self"] = config
simplejson.dumps(config)
