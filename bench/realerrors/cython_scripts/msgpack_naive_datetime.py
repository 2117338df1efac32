# ruff: noqa  (misuse on purpose: users write code like this)
import datetime

import msgpack

msgpack.packb(datetime.datetime(2024, 1, 1), datetime=True)
