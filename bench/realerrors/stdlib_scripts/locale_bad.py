import locale
locale.setlocale(locale.LC_ALL, 'xx_YY.UTF-8')
