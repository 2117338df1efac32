from typing import Union
Union[()]
