import enum
class Color(enum.Enum):
    RED = 1
Color(7)
