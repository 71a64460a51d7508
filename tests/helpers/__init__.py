"""Test support: throwaway databases and real server processes."""
