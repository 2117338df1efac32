import gettext
gettext.translation('nosuchdomain', localedir='/tmp', languages=['fr'])
