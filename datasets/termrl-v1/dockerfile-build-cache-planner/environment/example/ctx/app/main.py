print("orders")
