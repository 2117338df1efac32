import smtplib
smtplib.SMTP().ehlo()
