// Nothing to build: the package exists to be resolved with each trait (see Package.swift).
import NetworkLayer
