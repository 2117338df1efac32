import getopt
getopt.getopt(['-z'], 'ab')
