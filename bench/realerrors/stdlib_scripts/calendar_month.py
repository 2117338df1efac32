import calendar
calendar.monthrange(2024, 13)
