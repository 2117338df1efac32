import xml.etree.ElementTree as ET
ET.fromstring('<a><b></a>')
