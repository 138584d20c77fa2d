"""The credential tests' scratch machine, a fixture both of their modules use."""

from ...support.credhome import root as root
