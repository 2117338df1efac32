import json
json.dumps({'when': object()})
