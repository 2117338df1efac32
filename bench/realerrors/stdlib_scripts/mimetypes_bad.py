import netrc
netrc.netrc('/nonexistent/netrc')
