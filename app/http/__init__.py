"""HTTP middleware: the security headers, the body size limit, the request log, the allowed
methods, the refusal of cross-site API changes; the API's refusal of undocumented query
parameters (a route class); and conditional GETs (ETags)."""
