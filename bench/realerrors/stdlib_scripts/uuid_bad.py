import uuid
uuid.UUID('1234')
