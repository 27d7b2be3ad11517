"""`clubtd demo`: a simulated club night, narrated in the terminal."""
