"""The public pages (INTERFACE §6): a club's and its tournaments', live, in a browser."""
