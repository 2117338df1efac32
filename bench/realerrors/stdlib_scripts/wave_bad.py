# ruff: noqa  (misuse on purpose: users write code like this)
import wave, io

wave.open(io.BytesIO(b"RIFF0000WAVEjunk"))
