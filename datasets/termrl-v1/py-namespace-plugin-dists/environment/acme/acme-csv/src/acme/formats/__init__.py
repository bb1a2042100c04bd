"""acme format plugins"""
