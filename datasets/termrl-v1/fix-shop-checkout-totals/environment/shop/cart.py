class Cart:
    def __init__(self, items=[]):
        self._items = items

    def add(self, sku, qty):
        if qty <= 0:
            raise ValueError("qty must be positive")
        self._items.append([sku, qty])

    def remove(self, sku, qty):
        for line in self._items:
            if line[0] == sku:
                if qty > line[1]:
                    raise ValueError("not enough in cart")
                line[1] -= qty
                return
        raise ValueError("not in cart")

    def lines(self):
        return [(sku, qty) for sku, qty in self._items]
