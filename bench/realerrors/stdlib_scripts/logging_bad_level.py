import logging
logging.getLogger().setLevel('LOUD')
