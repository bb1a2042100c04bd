"""acme core: the plugin registry and the acme-convert command."""
__version__ = "2.1.0"
