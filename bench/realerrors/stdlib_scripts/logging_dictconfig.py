import logging.config
logging.config.dictConfig({'version': 2})
