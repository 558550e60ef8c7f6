print("exhibit-archive")
