import base64
base64.b32decode('MZXW6===x')
