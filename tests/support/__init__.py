"""The plain helpers the tests share."""
