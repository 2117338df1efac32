import configparser
c = configparser.ConfigParser()
c.read_string('host = x\n')
