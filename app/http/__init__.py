"""HTTP middleware: the security headers, the body size limit, the request log, the allowed
methods, the refusal of cross-site API changes; and conditional GETs (ETags)."""
