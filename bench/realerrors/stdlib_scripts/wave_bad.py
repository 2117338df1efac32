import wave, io
wave.open(io.BytesIO(b'RIFF0000WAVEjunk'))
