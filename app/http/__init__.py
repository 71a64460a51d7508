"""HTTP middleware: the body size limit, the request log, the allowed methods."""
