from typing import List
List[int, str]
