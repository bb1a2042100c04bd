from .cart import Cart
from .pricing import checkout

__all__ = ["Cart", "checkout"]
