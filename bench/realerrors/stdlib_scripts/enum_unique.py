import enum
@enum.unique
class Color(enum.Enum):
    RED = 1
    CRIMSON = 1
