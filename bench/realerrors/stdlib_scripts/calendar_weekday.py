import calendar
calendar.setfirstweekday(9)
