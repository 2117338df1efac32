import configparser
c = configparser.ConfigParser()
c.read_string('[db]\nhost = x\n')
c.get('db', 'port')
