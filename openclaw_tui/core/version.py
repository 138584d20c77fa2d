"""The product's version: what every host, bridge and client reports of itself."""

__version__ = "0.1.0"
