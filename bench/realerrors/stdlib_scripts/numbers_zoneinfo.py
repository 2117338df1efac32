import zoneinfo
zoneinfo.ZoneInfo('Mars/Olympus')
