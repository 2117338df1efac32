import uuid
uuid.UUID()
