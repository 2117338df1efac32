import shlex
shlex.split('echo "unterminated')
