"""Phone-friendly web companion (Flask)."""
