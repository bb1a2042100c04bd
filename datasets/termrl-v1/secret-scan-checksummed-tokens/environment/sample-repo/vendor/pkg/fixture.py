API_KEY = "8f0c2a9e7d6b5a4c3b2a1f0e"
