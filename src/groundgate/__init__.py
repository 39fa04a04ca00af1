"""groundgate: answers operations and business questions only with what its read-only tools proved."""

__version__ = "0.1.0"
